"""``gz-ia session diff <id>`` (alias ``read``): what the session changed."""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.command import alias
from gzia.cli.session.common import open_session, session_command
from gzia.i18n import gettext


@session_command(
    "diff", help="Show what the session changed (alias: read).",
    options=[click.option("--stat", is_flag=True, help="Show only a summary of the changes.")])
def diff_command(session: str, stat: bool, directory: str | None) -> None:
    from gzia.sessions.diff import session_diff

    store, record = open_session(session, directory)
    result = session_diff(store.project, record, stat=stat)

    def human() -> None:
        if not result.is_isolated:
            output.line(gettext("The session ran in direct mode and has no isolated diff."))
        elif not result.text:
            output.line(gettext("✧ No changes recorded in the session."))
        else:
            output.line(result.text.rstrip("\n"))

    output.emit(result.to_json(), human)


read_command = alias(diff_command, "read", help="Alias of diff.")
