"""``gz-ia session update <id>``: bring the latest base into the session's branch."""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.session.common import open_session, session_command
from gzia.cli.session.resolve import RESOLVE_OPTIONS, hand_off


@session_command(
    "update",
    help="Bring the latest base branch into the session's branch (rebase; --merge to merge). "
         "The base is only read.",
    options=(
        click.option("--merge", is_flag=True,
                     help="Merge the base into the session's branch instead of rebasing it."),
        click.option("--fetch", is_flag=True,
                     help="Fetch the base branch from its remote first and use the fetched one."),
        *RESOLVE_OPTIONS,
    ),
)
def update_command(session: str, *, merge: bool, fetch: bool, resolve_with_agent: bool,
                   provider: str | None, directory: str | None) -> None:
    from gzia.contract import ConflictError
    from gzia.sessions.merge import update_session
    from gzia.views.conflicts import render_update
    from gzia.views.merging import commits_identity_warning

    store, record = open_session(session, directory)
    try:
        result = update_session(store, record, merge=merge, fetch=fetch)
    except ConflictError as conflict:
        if not resolve_with_agent or "base_commit" not in conflict.details:
            raise
        hand_off(store, record, conflict, base_commit=conflict.details["base_commit"],
                 base_name=conflict.details["base"], provider=provider)
        return
    if (warning := commits_identity_warning(record.id, result.fallback_identity)) is not None:
        output.add_warning(warning)
    output.emit(result.to_json(), lambda: output.lines(render_update(result)))
