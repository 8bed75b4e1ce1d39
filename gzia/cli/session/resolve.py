"""``--resolve-with-agent [-p AGENT]`` on ``session merge`` and ``session update``: a
conflict that would be refused is handed to a new session instead
(:mod:`gzia.sessions.conflict_resolution`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from gzia.cli import completers, output

if TYPE_CHECKING:
    from gzia.contract import ConflictError
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore

RESOLVE_OPTIONS: tuple[Callable[[Any], Any], ...] = (
    click.option("--resolve-with-agent", is_flag=True,
                 help="On a conflict, start a session whose agent resolves it (nothing else "
                      "changes)."),
    click.option("-p", "--provider", metavar="AGENT", shell_complete=completers.providers,
                 help="The agent that resolves (default: the session's)."),
)


def hand_off(store: SessionStore, record: SessionRecord, conflict: ConflictError, *,
             base_commit: str, base_name: str, provider: str | None) -> None:
    """Start the resolving session and report it: the data has the conflict and the new
    session's record; exit 0."""
    from gzia.sessions.conflict_resolution import resolve_with_agent, resolver_driver
    from gzia.views.conflicts import render_handoff

    driver = resolver_driver(record, provider)
    run = resolve_with_agent(store, record, conflict, base_commit=base_commit,
                             base_name=base_name, driver=driver)
    files = list(conflict.details.get("files", []))
    data = {"id": record.id, "conflict": {"files": files, "base": base_name,
                                          "base_commit": base_commit},
            "resolver": run.record.to_json()}
    output.emit(data, lambda: output.lines(render_handoff(record.id, run.record, files,
                                                          driver.display_name)))
