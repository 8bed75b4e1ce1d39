"""``gz-ia session log`` (append an event) and ``session logs [-f]`` (read them)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from gzia.cli import output
from gzia.cli.session.common import Dir, SessionRef, open_session
from gzia.contract import NotFoundError, WarningCode, stopped_by_signal
from gzia.i18n import N_, gettext
from gzia.sessions.events import DEFAULT_AGENT, Event, append_event, new_event

Action = Annotated[str, typer.Option("-a", "--action", help="What happened.")]
Stage = Annotated[str, typer.Option("-s", "--stage", help="READ, PENDING or FINISH.")]
Status = Annotated[str | None, typer.Option("--status", help="OK or FAILED.")]
Agent = Annotated[str, typer.Option("--agent", help="Agent id.")]
Role = Annotated[str | None, typer.Option("-r", "--role", help="Agent role.")]
ErrorText = Annotated[str | None, typer.Option("--error", help="Error text.")]
Duration = Annotated[int | None, typer.Option("--duration", help="Duration in milliseconds.")]
Follow = Annotated[bool, typer.Option("-f", "--follow", help="Keep printing while it runs.")]


def log_command(  # noqa: PLR0917 - typer maps one parameter to each flag
    ctx: typer.Context, session: SessionRef, action: Action, stage: Stage,
    status: Status = None, agent: Agent = DEFAULT_AGENT, role: Role = None,
    error: ErrorText = None, duration: Duration = None, directory: Dir = None,
) -> None:
    event = new_event(session, action, stage, status=status, agent_id=agent, role=role,
                      error=error, duration_ms=duration)
    store, record = open_session(ctx, session, directory)
    event.session_id = record.id
    append_event(store, event)
    output.emit(event.to_json(),
                lambda: output.line(gettext("✓ Event recorded for session '{id}'.", id=record.id)))


def logs_command(
    ctx: typer.Context, session: SessionRef, follow: Follow = False, directory: Dir = None
) -> None:
    from gzia.sessions.events import follow_events, read_events
    from gzia.sessions.reconcile import get_session
    from gzia.views.sessions import event_line

    store, record = open_session(ctx, session, directory)

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
            if not output.state.quiet:
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
