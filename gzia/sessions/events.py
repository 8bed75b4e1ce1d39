"""Session events: ``.harness/sessions/<id>.events.jsonl``, one JSON object per line.

The event shape is the original gz-ia's (``id`` of 12 hex, ``session_id``, ``agent_id``,
``role``, ``action``, ``stage`` READ|PENDING|FINISH, ``status`` null|OK|FAILED always
written, ``timestamp`` in UTC, ``duration_ms``, ``error``, ``metadata``), so files written
by either tool read in the other. Appends take an ``flock`` and write one line in one
``write`` call; readers take only complete lines, so a line being written is never
half-read. The file is opened without blocking and must be a regular file: a FIFO or a
device under its name is an ``IO`` error, never a command that hangs. One event's line
is at most ``MAX_EVENT_BYTES``: a bigger one is refused (``INVALID_INPUT``), never
written.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import GzError, InvalidInputError, IOFailure, SafetyBlockError
from gzia.i18n import N_
from gzia.sessions.record import json_bytes, now_rfc3339
from gzia.sessions.store import NotRegularFileError, SessionStore, SymlinkError, open_regular
from gzia.sessions.symlinks import symlink_refusal

STAGES = ("READ", "PENDING", "FINISH")
STATUSES = ("OK", "FAILED")
DEFAULT_AGENT = "orchestrator"
POLL_INTERVAL = 0.1
MAX_EVENT_BYTES = 64 * 1024

_OPTIONAL = ("agent_id", "role", "duration_ms", "error", "metadata")
_ORDER = ("id", "session_id", "agent_id", "role", "action", "stage", "status", "timestamp",
          "duration_ms", "error", "metadata")


@dataclass
class Event:
    id: str
    session_id: str
    action: str
    stage: str
    status: str | None
    timestamp: str
    agent_id: str | None = None
    role: str | None = None
    duration_ms: int | None = None
    error: str | None = None
    metadata: dict[str, Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self, *, complete: bool = True) -> dict[str, Any]:
        """All fields (``complete``), or the original's file form without empty optionals."""
        data = {
            name: getattr(self, name) for name in _ORDER
            if complete or name not in _OPTIONAL or getattr(self, name) not in (None, "")
        }
        for key, value in self.extras.items():
            data.setdefault(key, value)
        return data

    @classmethod
    def from_json(cls, data: object) -> Event:
        if not isinstance(data, dict):
            raise ValueError("an event must be a JSON object")
        known: dict[str, Any] = {k: data.get(k) for k in _ORDER}
        for name in ("id", "session_id", "action", "stage", "timestamp"):
            if not isinstance(known[name], str):
                raise ValueError(f"event field '{name}' is missing")
        extras = {k: v for k, v in data.items() if k not in _ORDER}
        return cls(**known, extras=extras)


@dataclass
class EventBatch:
    events: list[Event]
    unreadable_lines: list[int]
    offset: int
    """Where the next read starts (after the last complete line)."""


def parse_stage(raw: str) -> str:
    stage = raw.strip().upper()
    if stage not in STAGES:
        raise InvalidInputError(N_("invalid stage: '{value}' (valid: READ, PENDING, FINISH)"),
                                value=raw, details={"stage": raw})
    return stage


def parse_status(raw: str | None) -> str | None:
    if raw is None:
        return None
    status = raw.strip().upper()
    if status not in STATUSES:
        raise InvalidInputError(N_("invalid status: '{value}' (valid: OK, FAILED)"), value=raw,
                                details={"status": raw})
    return status


def new_event(
    session_id: str,
    action: str,
    stage: str,
    *,
    status: str | None = None,
    agent_id: str | None = DEFAULT_AGENT,
    role: str | None = None,
    error: str | None = None,
    duration_ms: int | None = None,
    metadata: dict[str, Any] | None = None,
) -> Event:
    """A validated event stamped now (stage and status are case-insensitive)."""
    import secrets

    if not action.strip():
        raise InvalidInputError(N_("the action must not be empty"))
    if duration_ms is not None and duration_ms < 0:
        raise InvalidInputError(N_("invalid duration: '{value}' (milliseconds, 0 or more)"),
                                value=str(duration_ms))
    return Event(
        id=secrets.token_hex(6), session_id=session_id, action=action,
        stage=parse_stage(stage), status=parse_status(status), timestamp=now_rfc3339(),
        agent_id=agent_id or None, role=role or None, duration_ms=duration_ms,
        error=error or None, metadata=metadata,
    )


def append_event(store: SessionStore, event: Event) -> None:
    """Append one line; the events file must be a regular file (never a FIFO or device)."""
    path = store.events_path(event.session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(event.to_json(complete=False), ensure_ascii=False) + "\n"
    data = json_bytes(line)
    size = len(data)
    if size > MAX_EVENT_BYTES:
        raise InvalidInputError(N_("the event is {size} bytes; an event may hold at most {limit} "
                                   "bytes"),
                                size=size, limit=MAX_EVENT_BYTES,
                                details={"size": size, "limit": MAX_EVENT_BYTES})
    try:
        fd, _ = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _events_error(path, exc,
                            N_("cannot append to the event log {path}: {detail}")) from exc


def read_events(store: SessionStore, session_id: str, offset: int = 0) -> EventBatch:
    """The complete event lines from byte ``offset`` on."""
    path = store.events_path(session_id)
    try:
        before, raw = _read_from(path, offset)
    except FileNotFoundError:
        return EventBatch([], [], offset)
    except OSError as exc:
        raise _events_error(path, exc, N_("the event log {path} cannot be read: {detail}")) from exc
    complete = raw[: raw.rfind(b"\n") + 1]
    events, bad = [], []
    for number, line in enumerate(complete.splitlines(), start=1 + before.count(b"\n")):
        if not line.strip():
            continue
        try:
            events.append(Event.from_json(json.loads(line)))
        except ValueError:
            bad.append(number)
    return EventBatch(events, bad, offset + len(complete))


def _read_from(path: Path, offset: int) -> tuple[bytes, bytes]:
    """The file's bytes before ``offset`` (to number lines) and from it on."""
    fd, _ = open_regular(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        before = handle.read(offset) if offset else b""
        return before, handle.read()


def _events_error(path: Path, exc: OSError, key: str) -> GzError:
    details = {"path": str(path), "error": str(exc)}
    if isinstance(exc, SymlinkError):
        return symlink_refusal(path)
    if isinstance(exc, NotRegularFileError):
        return IOFailure(N_("the event log {path} is not a regular file (a FIFO, a device or a "
                            "directory); gz-ia neither reads nor writes it"),
                         path=str(path), details=details)
    return IOFailure(key, path=str(path), detail=exc.strerror or str(exc), details=details)


def follow_events(
    store: SessionStore,
    session_id: str,
    keep_going: Callable[[], bool],
    poll_interval: float = POLL_INTERVAL,
) -> Iterator[Event]:
    """Every event, then new ones as they come, until ``keep_going()`` turns false.

    After the last check one final read picks up events written while stopping.
    """
    offset = 0
    while True:
        running = keep_going()
        batch = read_events(store, session_id, offset)
        offset = batch.offset
        yield from batch.events
        if not running:
            return
        time.sleep(poll_interval)


def log_lifecycle_event(
    store: SessionStore,
    session_id: str,
    action: str,
    stage: str,
    *,
    failed: bool | None = None,
    error: str | None = None,
    duration_ms: int | None = None,
    metadata: dict[str, Any] | None = None,
) -> None:
    """Append a lifecycle event; the event log never decides whether a run succeeds."""
    status = None if failed is None else "FAILED" if failed else "OK"
    event = new_event(session_id, action, stage, status=status, error=error,
                      duration_ms=duration_ms, agent_id="gz-ia", metadata=metadata)
    # IOFailure: not a regular file, say; SafetyBlockError: a symbolic link
    with contextlib.suppress(OSError, IOFailure, SafetyBlockError):
        append_event(store, event)
