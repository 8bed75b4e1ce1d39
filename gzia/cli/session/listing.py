"""``gz-ia session list``: the project's sessions, newest first, each one reconciled.

In JSON mode the records are printed in the form they are stored in (one line each, see
``SessionRecord.to_text``): a record read in that form is printed as read, without being
encoded again; any other (an older gz-ia's, or one reconciled just now) is encoded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import command
from gzia.cli.numbers import Count
from gzia.cli.session.common import dir_option
from gzia.contract import WarningCode
from gzia.i18n import N_
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import list_sessions
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore

if TYPE_CHECKING:
    from gzia.sessions.list_filter import ListFilter


@command("list", help="List the project's sessions, newest first.")
@dir_option
@click.option("--status", multiple=True, show_default=False,
              help="Only sessions in this status, or merged (repeatable).",
              shell_complete=completers.list_statuses)
@click.option("--provider", multiple=True, show_default=False,
              help="Only sessions of this provider (repeatable).",
              shell_complete=completers.providers)
@click.option("--label", multiple=True, show_default=False,
              help="Only sessions with label k=v (repeatable: all must match).")
@click.option("--since",
              help="Only sessions started since a time (RFC 3339) or a duration ago (2h, 7d).")
@click.option("--limit", type=Count(1), metavar="N", help="Show at most N sessions, newest first.")
@click.option("--name", "names", multiple=True, metavar="GLOB", show_default=False,
              help="Only sessions whose name matches GLOB (repeatable).")
@click.option("--tree", is_flag=True,
              help="Show each sub-session under the session that started it.")
def list_command(directory: str | None, status: tuple[str, ...],  # noqa: PLR0917 - one per flag
                 provider: tuple[str, ...], label: tuple[str, ...], since: str | None,
                 limit: int | None, names: tuple[str, ...], tree: bool) -> None:
    from gzia.sessions.list_filter import build_filter

    wanted = build_filter(statuses=status, providers=provider, labels=label, since=since,
                          limit=limit, names=names)
    show_sessions(directory, None if wanted.is_empty else wanted, tree=tree)


def show_sessions(directory: str | None, wanted: ListFilter | None = None, *,
                  tree: bool = False) -> None:
    """List the sessions of the project containing ``directory`` (default: cwd), those
    ``wanted`` selects when given; ``tree``: each sub-session under its parent."""
    result = list_sessions(SessionStore(find_project(directory)))
    for bad in result.unreadable:
        output.warn(WarningCode.IO, N_("skipped unreadable session record {path}: {detail}"),
                    path=bad.path,
                    detail=bad.error,
                    details=bad.to_json())
    records = result.records if wanted is None else _filtered(result.records, wanted)
    depths: dict[str, int] = {}
    if tree:
        from gzia.sessions.tree import tree_order

        ordered = tree_order(records)
        records, depths = [r for r, _ in ordered], {r.id: d for r, d in ordered}
    if output.is_json():  # built only when printed: encoding records is most of the cost
        output.emit(records_as_json(records, result.texts))
        return

    def human() -> None:
        from gzia.views.sessions import render_list

        output.lines(render_list(records, depths))

    output.emit(None, human)


def records_as_json(records: list[SessionRecord], texts: dict[str, str]) -> output.JSONText:
    """``{"sessions": [...]}``, each record as read where its text is its encoding."""
    listed = ", ".join(texts.get(r.id) or r.to_text() for r in records)
    return output.JSONText(f'{{"sessions": [{listed}]}}')


def _filtered(records: list[SessionRecord], wanted: ListFilter) -> list[SessionRecord]:
    from gzia.sessions.list_filter import apply_filter

    filtered = apply_filter(records, wanted)
    if filtered.capped:
        output.warn(WarningCode.TAG_FILTER_SCAN_CAPPED,
                    N_("--limit {limit} reached: more sessions match than are shown"),
                    limit=wanted.limit,
                    details={"limit": wanted.limit})
    return filtered.records
