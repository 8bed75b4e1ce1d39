"""``gz-ia session log`` (append an event) and ``session logs [-f]`` (read them)."""

from __future__ import annotations

from typing import Any

import click

from gzia.cli import output
from gzia.cli.session.common import open_session, session_command
from gzia.contract import NotFoundError, WarningCode, stopped_by_signal
from gzia.i18n import N_, gettext
from gzia.sessions.events import DEFAULT_AGENT, Event, append_event, new_event


@session_command("log", help="Append an event to the session's event log.", options=[
    click.option("-a", "--action", required=True, help="What happened."),
    click.option("-s", "--stage", required=True, help="READ, PENDING or FINISH."),
    click.option("--status", help="OK or FAILED."),
    click.option("--agent", default=DEFAULT_AGENT, help="Agent id."),
    click.option("-r", "--role", help="Agent role."),
    click.option("--error", help="Error text."),
    click.option("--duration", type=int, help="Duration in milliseconds."),
])
def log_command(  # noqa: PLR0917 - one parameter for each flag
    session: str, action: str, stage: str, status: str | None, agent: str, role: str | None,
    error: str | None, duration: int | None, directory: str | None,
) -> None:
    event = new_event(session, action, stage, status=status, agent_id=agent, role=role,
                      error=error, duration_ms=duration)
    store, record = open_session(session, directory)
    event.session_id = record.id
    append_event(store, event)
    output.emit(event.to_json(),
                lambda: output.line(gettext("✓ Event recorded for session '{id}'.", id=record.id)))


@session_command(
    "logs", help="Print the session's events (-f: follow while it runs).",
    options=[click.option("-f", "--follow", is_flag=True, help="Keep printing while it runs.")])
def logs_command(session: str, follow: bool, directory: str | None) -> None:
    from gzia.sessions.events import follow_events, read_events
    from gzia.sessions.reconcile import get_session
    from gzia.views.sessions import event_line

    store, record = open_session(session, directory)

    def still_running() -> bool:
        try:
            return get_session(store, record.id).is_running
        except NotFoundError:  # deleted while we followed it
            return False

    if follow:
        events = follow_events(store, record.id, still_running)
    else:
        batch = read_events(store, record.id)
        _warn_unreadable(batch.unreadable_lines, str(store.events_path(record.id)))
        events = iter(batch.events)
    seen: list[Event] = []

    def listing() -> dict[str, Any]:
        return {"id": record.id, "events": [e.to_json() for e in seen]}

    try:
        for event in events:
            seen.append(event)
            if not output.current().quiet:
                output.line(event_line(event))
    except KeyboardInterrupt as stop:  # Ctrl+C ends -f: the envelope still holds the events
        raise stopped_by_signal(stop, listing()) from stop
    output.emit(listing(), lambda: None if seen else output.line(
        gettext("✧ No events recorded for session '{id}'.", id=record.id)))


WARNED_LINES = 5  # one warning each; the rest of the unreadable lines get one summary


def _warn_unreadable(lines: list[int], path: str) -> None:
    for line in lines[:WARNED_LINES]:
        output.warn(WarningCode.IO, N_("skipped unreadable event line {line} in {path}"), line=line,
                    path=path,
                    details={"line": line})
    rest = lines[WARNED_LINES:]
    if rest:
        output.warn(WarningCode.IO,
                    N_("skipped {count} more unreadable event lines in {path} (lines {first} to "
                       "{last})"),
                    count=len(rest), first=rest[0],
                    last=rest[-1], path=path,
                    details={"count": len(rest), "first_line": rest[0], "last_line": rest[-1]})
