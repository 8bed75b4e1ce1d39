"""``gz-ia session kill <id>`` and ``gz-ia session resume <id>`` (alias ``continue``).

:func:`register` adds them to the ``session`` group; like its other subcommands they take
``-d/--dir`` after the subcommand or before it (``gz-ia session -d DIR kill ID``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli import output
from gzia.cli.command import alias
from gzia.cli.run_options import run_options
from gzia.cli.session.common import open_store, session_command
from gzia.contract import WarningCode
from gzia.i18n import N_, gettext

_MSG_KILL_WHY: dict[object, str] = {
    "caller_group": N_("it is in the process group of gz-ia or of its caller ({pgid})"),
    "not_group_leader": N_("it shares process group {pgid} with other processes and does not lead "
                           "it"),
    "pgid_mismatch": N_("the record names process group {recorded_pgid}, but the process is in "
                        "group {pgid}"),
    "unsafe_group": N_("it is in process group {pgid}, which gz-ia never signals"),
}

KEEP_CHILDREN = click.option("--keep-children", is_flag=True,
                             help="Leave the session's sub-sessions running.")

if TYPE_CHECKING:
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.run_options import RunOptions
    from gzia.supervisor.killtarget import KillTarget


@session_command(
    "kill", help="Stop a running session (SIGTERM, grace, SIGKILL to its process group) and "
                 "record it killed.",
    options=[click.option("--force", "-f", is_flag=True,
                          help="Signal the recorded PID even when the record has no start time "
                               "and the process runs none of the agent's programs."),
             KEEP_CHILDREN])
def kill_command(session: str, force: bool, keep_children: bool, directory: str | None) -> None:
    from gzia.sessions.ids import validate_session_ref
    from gzia.sessions.stopping import stop_session

    validate_session_ref(session)
    result = stop_session(open_store(directory), session, force=force,
                          keep_children=keep_children)
    record = result.record
    warn_if_process_only(record.id, result.target)
    warn_if_still_stopping(record)
    key = (N_("✧ Session '{id}' was no longer running (PID {pid} had vanished): marked lost.")
           if result.was_lost else N_("✓ Session '{id}' (PID {pid}) stopped."))
    output.emit(record.to_json(),
                human=lambda: output.line(gettext(key, id=record.id, pid=record.pid)))


def warn_if_still_stopping(record: SessionRecord) -> None:
    """The session was signalled but its owner has not written how it ended yet (a
    holder still in its grace, or busy): the record reads ``running`` for a moment more."""
    if record.is_running:
        output.warn(WarningCode.KILL_ASYNC,
                    N_("session '{id}' was signalled; its owner has not yet recorded how it ended "
                       "(the record still reads running): check with gz-ia session wait {id}"),
                    id=record.id, details={"id": record.id})


def warn_if_process_only(session_id: str, target: KillTarget | None) -> None:
    """A kill that could signal only the agent's process, not its group, says so and why
    (warning ``SAFETY_BLOCK``; ``details`` tell what was signalled)."""
    if target is None or target.whole_group:
        return
    why = gettext(_MSG_KILL_WHY[target.reason], pgid=target.pgid,
                  recorded_pgid=target.recorded_pgid)
    output.warn(WarningCode.SAFETY_BLOCK,
                N_("only PID {pid} was signalled, not a process group: {why}; processes it started "
                   "may still be running"),
                pid=target.pid, why=why,
                details={"id": session_id, **target.to_json()})


@session_command("resume",
                 help="Resume a finished session in its own workspace and conversation.")
@run_options("name", "background", "no_notify", "sandbox", "skip_setup")
def resume_command(session: str, directory: str | None, run: RunOptions) -> None:
    from gzia.cli.resume import resume_and_report
    from gzia.sessions.ids import validate_session_ref
    from gzia.sessions.resuming import ResumeRequest

    validate_session_ref(session)
    resume_and_report(ResumeRequest(session, directory, run))


continue_command = alias(resume_command, "continue", help="Alias of resume.")
