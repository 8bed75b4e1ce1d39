"""The agent's own state, beside the process status: the one place a state changes.

``starting`` (the run began), ``working``, ``waiting`` (the agent asks the person
something), ``idle`` (its turn is over) and ``exited`` (the run's final write). Every
change goes through :func:`record_transition`: under the record's lock it sets ``state``,
``state_since`` and ``state_reason``, then appends one event to the session's events
file, beside the usual fields::

    {"type": "state", "state": "waiting", "since": "<RFC 3339>",
     "reason": "Claude needs your permission to use Bash", "previous": "working",
     "source": "hook"}

Writers are the run's owner (``starting``, ``exited``, the kernel detector), and the
agent's own hooks (:mod:`gzia.sessions.agent_hooks`), which run in other processes: a
consumer follows the events file (:class:`TransitionFollower`), never a callback.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gzia.contract import GzError
from gzia.i18n import gettext
from gzia.sessions.events import Event, append_event, new_event, read_events
from gzia.sessions.record import SessionRecord, now_rfc3339, parse_rfc3339
from gzia.sessions.store import SessionStore

MAX_REASON_CHARS = 200
EVENT_TYPE = "state"


class AgentState(StrEnum):
    STARTING = "starting"
    WORKING = "working"
    WAITING = "waiting"
    IDLE = "idle"
    EXITED = "exited"


SOURCES = ("owner", "hook", "detector")


@dataclass(frozen=True)
class Transition:
    session_id: str
    state: AgentState
    since: str
    reason: str | None = None
    previous: AgentState | None = None
    source: str = "owner"

    def to_event_fields(self) -> dict[str, Any]:
        return {"type": EVENT_TYPE, "state": self.state.value, "since": self.since,
                "reason": self.reason,
                "previous": self.previous.value if self.previous is not None else None,
                "source": self.source}


def state_of(record: SessionRecord) -> AgentState | None:
    """The state a record shows: ``exited`` once the run is over, whatever was last
    written (a run that was lost, or that ended before its owner could say so)."""
    if not record.is_running:
        return AgentState.EXITED
    try:
        return AgentState(record.state) if record.state is not None else None
    except ValueError:
        return None


def record_transition(store: SessionStore, session_id: str, state: AgentState | str, *,
                      reason: str | None = None, source: str = "owner",
                      at: float | None = None) -> Transition | None:
    """Record that the agent of ``session_id`` is now in ``state``.

    ``at`` (epoch seconds) is when the agent acted, where it says (reports that may
    arrive out of order): ``since`` is then that time, and a report older than the
    record's ``state_since`` is dropped. Otherwise ``since`` is now.

    ``None`` (nothing written) when the state is unchanged (its first reason stays), when the
    record is gone or finished, or when it already says ``exited`` and ``state`` is
    not ``starting`` (a late hook of an ended run is dropped).
    """
    new = AgentState(state)
    reason = _short(reason) if new is AgentState.WAITING else None
    changed: list[Transition] = []

    def mutate(record: SessionRecord) -> None:
        transition = _change(record, new, reason, source, at=at)
        if transition is None:
            raise _Unchanged  # nothing is written
        changed.append(transition)

    try:
        store.update(session_id, mutate)
    except (_Unchanged, GzError, OSError):
        return None
    _append(store, changed[0])
    return changed[0]


class _Unchanged(Exception):
    """The record already says so: :meth:`SessionStore.update` then writes nothing."""


def mark_exited(record: SessionRecord) -> Transition | None:
    """Inside the run's final write: the record says ``exited``. The caller appends
    the returned transition's event (:func:`log_transition`) once the write is done."""
    return _change(record, AgentState.EXITED, None, "owner", finished_ok=True)


def log_transition(store: SessionStore, transition: Transition | None) -> None:
    if transition is not None:
        _append(store, transition)


def _change(record: SessionRecord, new: AgentState, reason: str | None, source: str,
            *, finished_ok: bool = False, at: float | None = None) -> Transition | None:
    previous = _known(record.state)
    if not record.is_running and not finished_ok:
        return None
    if at is not None and _older(at, record.state_since):
        return None  # a report overtaken by a later one
    if previous is AgentState.EXITED and new is not AgentState.STARTING:
        return None
    if previous is new:
        return None  # a second word for the same state (a hook and a notification)
    since = now_rfc3339() if at is None else _rfc3339(at)
    record.state, record.state_since, record.state_reason = new.value, since, reason
    return Transition(record.id, new, since, reason, previous, source)


def _older(at: float, since: str | None) -> bool:
    if since is None:
        return False
    try:
        return at < parse_rfc3339(since).timestamp()
    except ValueError:
        return False


def _rfc3339(at: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _known(value: str | None) -> AgentState | None:
    try:
        return AgentState(value) if value is not None else None
    except ValueError:
        return None


def _short(reason: str | None) -> str | None:
    if not reason:
        return None
    line = " ".join(reason.split())
    return line if len(line) <= MAX_REASON_CHARS else line[:MAX_REASON_CHARS - 1] + "…"


def _append(store: SessionStore, transition: Transition) -> None:
    stage = "FINISH" if transition.state is AgentState.EXITED else "PENDING"
    action = gettext("agent state: {state}", state=transition.state.value)
    event = new_event(transition.session_id, action, stage, agent_id="gz-ia")
    event.extras = transition.to_event_fields()
    with contextlib.suppress(OSError, GzError):  # the record holds the state all the same
        append_event(store, event)


def transition_of(event: Event) -> Transition | None:
    """The transition a state event records, or ``None`` for any other event."""
    fields = event.extras
    if fields.get("type") != EVENT_TYPE:
        return None
    state, previous = _known(fields.get("state")), fields.get("previous")
    since, source, reason = fields.get("since"), fields.get("source"), fields.get("reason")
    if state is None or not isinstance(since, str):
        return None
    return Transition(event.session_id, state, since,
                      reason if isinstance(reason, str) else None,
                      _known(previous) if isinstance(previous, str) else None,
                      source if isinstance(source, str) else "owner")


def read_transitions(store: SessionStore, session_id: str,
                     offset: int = 0) -> tuple[list[Transition], int]:
    """The transitions recorded from byte ``offset`` of the events file on, in order,
    and where the next read starts."""
    batch = read_events(store, session_id, offset)
    found = (transition_of(event) for event in batch.events)
    return [t for t in found if t is not None], batch.offset


class TransitionFollower:
    """New transitions of one session, read incrementally from its events file (by any
    writer: a hook, the detector, the owner). Drive :meth:`poll` from a loop."""

    def __init__(self, store: SessionStore, session_id: str, offset: int = 0) -> None:
        self.store, self.session_id, self.offset = store, session_id, offset

    def poll(self) -> list[Transition]:
        try:
            found, self.offset = read_transitions(self.store, self.session_id, self.offset)
        except GzError:
            return []
        return found


RELAY_POLL_S = 0.1
"""How often :func:`relayed_transitions` reads the events file for new transitions."""


@contextlib.contextmanager
def relayed_transitions(store: SessionStore, session_id: str,
                        listener: Callable[[Transition], None] | None) -> Iterator[None]:
    """While the block runs, hand each transition recorded from now on (by a hook, the
    detector or the owner) to ``listener``, in order, from a thread of its own."""
    if listener is None:
        yield
        return
    follower = TransitionFollower(store, session_id)
    follower.poll()  # what earlier runs recorded is not news
    done = threading.Event()

    def relay() -> None:
        while not done.wait(RELAY_POLL_S):
            for transition in follower.poll():
                listener(transition)

    thread = threading.Thread(target=relay, name="gz-ia-state-relay", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
