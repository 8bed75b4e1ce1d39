"""``gz-ia session show <id>`` (the record) and ``session path <id>`` (its directory)."""

from __future__ import annotations

from gzia.cli import output
from gzia.cli.session.common import open_session, session_command


@session_command("show", help="Show one session's record.")
def show_command(session: str, directory: str | None) -> None:
    from gzia.views.sessions import render_show

    _, record = open_session(session, directory)
    output.emit(record.to_json(), lambda: output.lines(render_show(record)))


@session_command("path", help="Print the directory the session works in.")
def path_command(session: str, directory: str | None) -> None:
    from gzia.sessions.workspace import workspace_of

    store, record = open_session(session, directory)
    path = str(workspace_of(store.project, record).target_dir)
    output.emit({"id": record.id, "path": path, "is_isolated": record.is_isolated},
                lambda: output.line(path))
