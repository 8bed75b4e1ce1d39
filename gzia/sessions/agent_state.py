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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.contract import GzError
from gzia.drivers.base import STATE_HOOKS, Driver, blocked_state, state_method
from gzia.i18n import gettext
from gzia.selfexec import HOOK_ARG, gzia_argv
from gzia.sessions.events import Event, append_event, new_event, read_events
from gzia.sessions.record import SessionRecord, now_rfc3339, parse_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.activity import Activity, ActivityWatch

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


@dataclass(frozen=True)
class StateHooks:
    """What a hook-reporting agent is given: the command its hooks run, and the plugin
    file written for it (``None`` for an agent that takes the command in its flags)."""

    argv: tuple[str, ...]
    plugin: Path | None = None


def hook_args(store: SessionStore, session_id: str, driver: Driver) -> tuple[str, ...]:
    """What a state hook runs gz-ia with (:mod:`gzia.sessions.agent_hooks`)."""
    return HOOK_ARG, str(store.project.root), session_id, driver.id


def state_hooks(store: SessionStore, session_id: str, driver: Driver,
                gzia: Sequence[str] | None = None) -> StateHooks | None:
    """The hooks of a driver that reports through them, else ``None``. A plugin file goes
    under ``.harness/hooks`` (mode 0600), outside the worktree: nothing reaches the
    user's branch or config. ``gzia``: what runs gz-ia (a sandbox's relay), if not this
    same gz-ia."""
    if state_method(driver) != STATE_HOOKS:
        return None
    argv = (*(gzia_argv() if gzia is None else gzia), *hook_args(store, session_id, driver))
    source = getattr(driver, "state_plugin_source", None)
    if source is None:
        return StateHooks(argv)
    if store.project.is_git:
        # lazy: start-up speed (off the path of session list, which shows states)
        from gzia.sessions.workspace import ensure_excluded

        ensure_excluded(store.project)
    path = store.state_plugin_path(session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, source(argv).encode("utf-8"), mode=0o600)
    return StateHooks(argv, path)


def detector_watch(store: SessionStore, session_id: str, driver: Driver) -> ActivityWatch | None:
    """The kernel detector for a driver that declares it (``None`` for hook drivers):
    blocked reading the terminal is the driver's ``blocked_state``, else ``working``."""
    if state_method(driver) == STATE_HOOKS:
        return None
    blocked = AgentState(blocked_state(driver))

    def report(activity: Activity) -> None:
        state = blocked if activity is Activity.BLOCKED else AgentState.WORKING
        record_transition(store, session_id, state, source="detector")

    return ActivityWatch(report)
