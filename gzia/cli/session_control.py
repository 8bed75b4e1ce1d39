"""``gz-ia session kill <id>`` and ``gz-ia session resume <id>`` (alias ``continue``).

:func:`register` adds them to the ``session`` group.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gzia.cli import output
from gzia.i18n import t

IdArgument = Annotated[str, typer.Argument(metavar="ID", help="Session id (or unique prefix).")]
DirOption = Annotated[str | None, typer.Option("-d", "--dir", help="Project directory.")]


def register(app: typer.Typer) -> None:
    app.command("kill", help="Stop a running session (SIGTERM, grace, SIGKILL to its "
                             "process group) and record it killed.")(kill)
    app.command("resume", help="Resume a finished session in its own workspace and "
                               "conversation.")(resume)
    app.command("continue", help="Alias of resume.", hidden=True)(resume)


def kill(session_id: IdArgument, directory: DirOption = None) -> None:
    from gzia.cli.run_report import configured_watchdog
    from gzia.sessions.kill import kill_session
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore

    store = SessionStore(find_project(directory))
    result = kill_session(store, session_id, configured_watchdog().kill_grace_s)
    record = result.record
    key = "run.kill_lost" if result.was_lost else "run.kill_done"
    output.emit(record.to_json(), human=lambda: output.line(t(key, id=record.id, pid=record.pid)))


def resume(session_id: IdArgument, directory: DirOption = None) -> None:
    from gzia.cli.resume import resume_in_foreground

    resume_in_foreground(session_id, directory)
