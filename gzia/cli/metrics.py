"""``gz-ia metrics`` and ``gz-ia session metrics <id>``: usage read from the agents' own
transcripts (docs/metrics.md). The metrics code loads only when one of them runs."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import command
from gzia.cli.session.common import dir_option, open_session, session_command
from gzia.contract import WarningCode
from gzia.i18n import N_, NN_

_MSG_WARN: dict[object, str] = {
    "bad_values": NN_("session {id}: {count} figure of {path} cannot be true (negative, "
                      "fractional, infinite, not a number or too large) and was left out",
                      "session {id}: {count} figures of {path} cannot be true (negative, "
                      "fractional, infinite, not a number or too large) and were left out"),
    "diff_unavailable": N_("session {id}: files and lines changed are unknown: {detail}"),
    "line_too_long": NN_("session {id}: {count} line of {path} is longer than {detail} and was "
                         "skipped",
                         "session {id}: {count} lines of {path} are longer than {detail} and were "
                         "skipped"),
    "missing": N_("session {id}: no transcript found at {path}; usage figures are missing"),
    "no_conversation": N_("session {id}: its record names no conversation and it ran in direct "
                          "mode, so its transcript is not guessed ({path}); usage figures are "
                          "missing"),
    "not_regular": N_("session {id}: {path} is not a regular file (a FIFO, a device, a socket or a "
                      "directory); it was not read"),
    "partial": N_("session {id}: the last line of {path} is incomplete (the agent is still writing "
                  "it); it was left out"),
    "too_complex": NN_("session {id}: {count} line of {path} nests deeper than 100 levels or holds "
                       "more than 262144 objects and arrays, and was skipped",
                       "session {id}: {count} lines of {path} nest deeper than 100 levels or hold "
                       "more than 262144 objects and arrays, and were skipped"),
    "too_large": N_("session {id}: {path} is larger than {detail}; only its first {detail} were "
                    "read"),
    "unknown_format": N_("session {id}: {path} is not in a format gz-ia knows; no figures read "
                         "from it"),
    "unreadable": N_("session {id}: cannot read {path}: {detail}"),
    "unreadable_lines": NN_("session {id}: {count} line of {path} is not JSON and was skipped",
                            "session {id}: {count} lines of {path} are not JSON and were skipped"),
}

if TYPE_CHECKING:
    from gzia.metrics.model import Notice


@command("metrics",
         help="Duration, token usage, requests, tool calls and cost of the project's sessions.")
@click.option("--since", metavar="DATE", help="Only sessions started at or after DATE "
                                              "(YYYY-MM-DD, UTC, or an RFC 3339 time).")
@click.option("--provider", "-p", help="Only sessions of this agent ({agents}).",
              shell_complete=completers.providers)
@click.option("--status",
              help="Only sessions in this status (running, completed, failed, killed, lost, "
                   "paused).", shell_complete=completers.statuses)
@click.option("--by", metavar="provider|day|model",
              help="Also add the figures up by provider, day or model.")
@dir_option
def app(since: str | None, provider: str | None, status: str | None,
        by: str | None, directory: str | None) -> None:
    from gzia.cli.metrics_views import render_project
    from gzia.metrics.project import parse_by, parse_filters, project_metrics
    from gzia.sessions.project import find_project
    from gzia.sessions.reconcile import list_sessions
    from gzia.sessions.store import SessionStore

    filters, grouping = parse_filters(since, provider, status), parse_by(by)
    store = SessionStore(find_project(directory))
    listed = list_sessions(store)
    for bad in listed.unreadable:
        output.warn(WarningCode.IO, N_("skipped unreadable session record {path}: {detail}"),
                    path=bad.path,
                    detail=bad.error,
                    details=bad.to_json())
    result = project_metrics(listed.records, store, filters, os.environ, grouping)
    for row in result.sessions:
        warn_notices(row.record.id, row.notices)
    output.emit(result.to_json(), lambda: render_project(result))


@session_command("metrics", help="Show a session's status, duration, exit code and changes, and "
                                 "what its agent's transcript recorded: models, requests, "
                                 "tokens, cost and tool calls.")
def session_metrics_command(session: str, directory: str | None) -> None:
    from gzia.cli.metrics_views import render_session
    from gzia.metrics.session import session_metrics

    store, record = open_session(session, directory)
    result = session_metrics(store.project, record, os.environ)
    warn_notices(record.id, result.notices)
    output.emit(result.to_json(), lambda: render_session(result))


def warn_notices(session_id: str, notices: list[Notice]) -> None:
    """Each notice becomes an ``IO`` warning; ``details.reason`` says which kind."""
    for notice in notices:
        output.warn(WarningCode.IO, _MSG_WARN[notice.reason], id=session_id, path=notice.path,
                    count=notice.count, detail=notice.detail,
                    details={"id": session_id, **notice.to_json()})
