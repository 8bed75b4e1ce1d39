"""``gz-ia session pause <id>`` and ``gz-ia session revive <id> [--no-resume]``: free a
session's worktree with its work kept on its branch, and bring it back (docs/sessions.md,
"Pause and revive")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli import output
from gzia.cli.run_options import run_options
from gzia.cli.session.common import open_store, session_command
from gzia.cli.session.stop import STOP_TIMEOUT, stop_timeout_s
from gzia.i18n import gettext

if TYPE_CHECKING:
    from gzia.sessions.run_options import RunOptions


@session_command(
    "pause", help="Stop a session's agent, commit its uncommitted work on its branch and "
                  "remove its worktree; the branch and the record stay (status paused).",
    options=[STOP_TIMEOUT])
def pause_command(session: str, timeout: float | None, directory: str | None) -> None:
    from gzia.sessions.ids import validate_session_ref
    from gzia.sessions.pause import pause_session
    from gzia.views.pausing import paused_line

    validate_session_ref(session)
    result = pause_session(open_store(directory), session,
                           stop_timeout_s=stop_timeout_s(timeout))
    output.emit({**result.record.to_json(), "pause": result.to_json()},
                human=lambda: output.line(paused_line(result)))


@session_command(
    "revive", help="Bring a paused session's worktree back at its path (its included files "
                   "and setup too) and resume its conversation.",
    options=[click.option("--no-resume", is_flag=True,
                          help="Only bring the worktree back; do not start the agent.")])
@run_options("name", "background", "no_notify", "skip_setup")
def revive_command(session: str, no_resume: bool, directory: str | None,
                   run: RunOptions) -> None:
    from gzia.sessions.ids import validate_session_ref

    validate_session_ref(session)
    if not no_resume:
        from gzia.cli.resume import resume_and_report
        from gzia.sessions.resuming import ResumeRequest

        resume_and_report(ResumeRequest(session, directory, run), revive=True)
        return
    from gzia.sessions.pause import revive_worktree

    record = revive_worktree(open_store(directory), session, skip_setup=run.skip_setup)
    output.emit(record.to_json(), human=lambda: output.line(gettext(
        "✓ Session '{id}' revived in {path}; its agent was not started (gz-ia session resume "
        "{id} starts it).", id=record.id, path=record.worktree_dir or "")))
