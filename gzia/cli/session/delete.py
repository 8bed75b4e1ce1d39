"""``gz-ia session delete <id>`` (alias ``rm``): the record, its worktree and branch."""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.command import alias
from gzia.cli.session.common import open_session, session_command
from gzia.i18n import gettext


@session_command(
    "delete", help="Delete a session and its worktree and branch (alias: rm).",
    options=[click.option("--force", "-f", is_flag=True,
                          help="Delete even unmerged or running work.")])
def delete_command(session: str, force: bool, directory: str | None) -> None:
    from gzia.cli.session.control import warn_if_process_only
    from gzia.sessions.delete import delete_session

    store, record = open_session(session, directory)
    result = delete_session(store, record, force=force)
    warn_if_process_only(record.id, result.kill_target)
    output.emit(result.to_json(),
                lambda: output.line(gettext("✓ Session '{id}' deleted from the registry.",
                                            id=record.id)))


rm_command = alias(delete_command, "rm", help="Alias of delete.")
