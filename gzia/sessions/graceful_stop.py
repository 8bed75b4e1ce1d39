"""``session stop``: ask the agent to end as a person would, then kill it if it does not.

1. The record must say ``running`` (reconciled first, as ``session kill`` does).
2. A background run's agent has a terminal gz-ia can type into: the record notes the
   request (``stop_requested_at``, under the lock), then the driver's quit keys
   (:func:`gzia.drivers.base.quit_keys`: a double Ctrl+C for Claude Code and pi,
   opencode's exit key, ``exit`` for a shell) are typed through the holder, ``pause_s``
   apart, and the record is watched until the run has ended or ``timeout_s`` passed.
   An agent that ended on its own is recorded ``end_reason: stopped`` by its owner
   (:func:`gzia.sessions.run.finish`).
3. Otherwise, or when the time is up, the run is killed as ``session kill`` kills it
   (TERM, the grace, KILL; ``end_reason: killed``). A foreground run has no terminal
   gz-ia can type into (a person's terminal is theirs): it is killed at once.

:class:`StopOutcome` says which (``stopped`` or ``killed``) and why a kill was needed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gzia.contract import ConflictError, GzError
from gzia.drivers.base import DOUBLE_CTRL_C, quit_keys
from gzia.drivers.registry import get_driver
from gzia.i18n import N_
from gzia.sessions.background import send_input
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.stopping import stop_session
from gzia.sessions.store import SessionStore
from gzia.supervisor.endreason import EndReason

if TYPE_CHECKING:
    from gzia.drivers.base import QuitKeys
    from gzia.sessions.kill import KillResult

POLL_S = 0.05
STOPPED = "stopped"
KILLED = "killed"
NO_TERMINAL = "no_terminal"
"""Why a stop killed at once: a foreground run, or a holder that no longer answers."""
TIMED_OUT = "timed_out"
"""Why a stop killed: the agent was still running when the time was up."""


@dataclass(frozen=True)
class StopOutcome:
    record: SessionRecord
    how: str
    """``stopped`` (the agent ended on its own) or ``killed``."""
    why_killed: str | None = None
    """``no_terminal`` or ``timed_out`` when ``how`` is ``killed``."""
    kill: KillResult | None = None

    def to_json(self) -> dict[str, object]:
        return {"how": self.how, "why_killed": self.why_killed}


def stop_gracefully(store: SessionStore, ref: str, timeout_s: float, *,
                    keep_children: bool = False) -> StopOutcome:
    """Stop the session ``ref`` (see the module's doc), then its running sub-sessions
    the same way, deepest first, unless ``keep_children``."""
    outcome = _stop_one(store, ref, timeout_s)
    if not keep_children:
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.children import stop_children

        stop_children(store, outcome.record.id,
                      lambda s, child: stop_gracefully(s, child, timeout_s, keep_children=True))
    return outcome


def _stop_one(store: SessionStore, ref: str, timeout_s: float) -> StopOutcome:
    record = _running(get_session(store, ref))
    if record.holder is None or not record.holder.alive():
        return _kill(store, record, NO_TERMINAL)
    store.update(record.id, _note_request)
    keys = _quit_keys_of(record)
    if _typed(record, keys) and _ended(store, record.id, timeout_s):
        return StopOutcome(get_session(store, record.id), STOPPED)
    return _kill(store, record, TIMED_OUT)


def _running(record: SessionRecord) -> SessionRecord:
    if record.status != Status.RUNNING:
        raise ConflictError(
            N_("session '{id}' is not running (current status: {status})"), id=record.id,
            status=record.status, details={"id": record.id, "status": record.status},
            data=record.to_json())
    return record


def _note_request(record: SessionRecord) -> None:
    _running(record)  # ended meanwhile: nothing to stop
    record.stop_requested_at = now_rfc3339()


def _quit_keys_of(record: SessionRecord) -> QuitKeys:
    try:
        return quit_keys(get_driver(record.provider), record.command)
    except GzError:  # its driver is no longer installed: what most agents take
        return DOUBLE_CTRL_C


def _typed(record: SessionRecord, keys: QuitKeys) -> bool:
    """Type each press; False when the holder took none (it is going away)."""
    typed = False
    for number, press in enumerate(keys.presses):
        if number:
            time.sleep(keys.pause_s)
        try:
            send_input(record, press)
        except GzError:  # the agent's terminal closed: it is ending
            return typed
        typed = True
    return typed


def _ended(store: SessionStore, session_id: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not get_session(store, session_id).is_running:
            return True
        time.sleep(POLL_S)
    return not get_session(store, session_id).is_running


def _kill(store: SessionStore, record: SessionRecord, why: str) -> StopOutcome:
    try:
        result = stop_session(store, record.id, keep_children=True)
    except ConflictError:  # it ended between the last look and the kill
        final = get_session(store, record.id)
        if final.end_reason != EndReason.STOPPED:
            raise
        return StopOutcome(final, STOPPED)
    return StopOutcome(result.record, KILLED, why, result)
