"""``gz-ia session show <id>`` (the record), ``session path <id>`` (its directory) and
``session rename <id> NAME``."""

from __future__ import annotations

from gzia.cli import output
from gzia.cli.command import argument
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


@session_command("rename", help="Name a session (shown in lists; not an id: names may repeat).",
                 options=[argument("name", metavar="NAME", help="The new name.")])
def rename_command(session: str, name: str, directory: str | None) -> None:
    from gzia.sessions.naming import checked_name, rename_session
    from gzia.views.sessions import renamed_line

    checked_name(name)
    store, record = open_session(session, directory)
    renamed = rename_session(store, record.id, name)
    output.emit(renamed.to_json(), lambda: output.line(renamed_line(renamed)))
