"""``gz-ia resume <id>``: continue a session's own conversation in its own workspace."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gzia.cli import output
from gzia.cli.command import argument, command
from gzia.cli.run_options import project_dir, run_options, with_preapproved
from gzia.cli.run_report import report_outcome, warn_at_launch
from gzia.cli.session.common import session_ids
from gzia.i18n import gettext
from gzia.sessions.run_options import RunOptions

if TYPE_CHECKING:  # the run machinery is imported when a resume runs, not for --help
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.resuming import ResumeRequest
    from gzia.sessions.workspace import Workspace


@command("resume", help="Resume a finished session in its own workspace and conversation.")
@argument("session_id", metavar="ID", help="Session id (or unique prefix).",
          shell_complete=session_ids)
@project_dir
@run_options("name", "background", "timeout", "no_output_timeout", "profiles", "no_mcp",
             "no_notify", "sandbox", "skip_setup")
def app(session_id: str, directory: str | None, run: RunOptions) -> None:
    from gzia.sessions.resuming import ResumeRequest

    resume_and_report(ResumeRequest(session_id, directory, run))


def resume_and_report(request: ResumeRequest, *, revive: bool = False) -> None:
    """Resume as ``request`` asks and report it: the launch line, then the record;
    ``revive``: a paused session, its worktree brought back first (``session revive``)."""
    if revive:
        from gzia.sessions.pause import revive as resume_run
    else:
        from gzia.sessions.resuming import resume as resume_run

    request = replace(request, options=with_preapproved(request.options))
    background = request.options.background

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_at_launch(workspace, base_changes=False)
        if background:  # the record printed on return says what runs where
            return
        output.progress(gettext("↻ Resuming session [{id}] in [{dir}]...", id=record.id,
                                dir=workspace.target_dir))

    report_outcome(resume_run(request, launched), background=background)
