"""``session stop``: ask the agent to end as a person would, then kill it if it does not.

1. The record must say ``running`` (reconciled first, as ``session kill`` does).
2. A background run's agent has a terminal gz-ia can type into: the record notes the
   request (``stop_requested_at``, under the lock), then the driver's quit keys
   (:func:`gzia.drivers.base.quit_keys`: a double Ctrl+C for Claude Code and pi,
   opencode's exit key, ``exit`` for a shell) are typed through the holder, ``pause_s``
   apart, and the record is watched until the run has ended or ``timeout_s`` passed.
   An agent that ended on its own is recorded ``end_reason: stopped`` by its owner
   (:func:`gzia.sessions.run.finish`).
3. A run with no terminal gz-ia can type into (a foreground run: a person's terminal is
   theirs; or a holder that no longer answers) is asked the way the terminal's Ctrl+C asks
   a program: the record notes the request and the agent's group gets a SIGINT (one per
   Ctrl+C of the quit keys, ``pause_s`` apart; the agent checked as ``session kill``
   checks it), then the record is watched the same way. Its owner writes how it ended.
4. Otherwise, or when the time is up, the run is killed as ``session kill`` kills it
   (TERM, the grace, KILL; ``end_reason: killed``).

:class:`StopOutcome` says which (``stopped`` or ``killed``) and why a kill was needed.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gzia.contract import ConflictError, GzError
from gzia.drivers.base import DOUBLE_CTRL_C, quit_keys
from gzia.drivers.registry import get_driver
from gzia.i18n import N_
from gzia.sessions.background import send_input
from gzia.sessions.kill import check_killable
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.stop_outcome import StopHow, WhyKilled
from gzia.sessions.stopping import stop_session
from gzia.sessions.store import SessionStore
from gzia.supervisor.endreason import EndReason
from gzia.supervisor.killtarget import resolve_target, send_first_signal

if TYPE_CHECKING:
    from gzia.drivers.base import QuitKeys
    from gzia.sessions.kill import KillResult

POLL_S = 0.05
CTRL_C = b"\x03"


@dataclass(frozen=True)
class StopOutcome:
    record: SessionRecord
    how: StopHow
    why_killed: WhyKilled | None = None
    """Set when ``how`` is ``killed``."""
    kill: KillResult | None = None

    def to_json(self) -> dict[str, object]:
        why = None if self.why_killed is None else self.why_killed.value
        return {"how": self.how.value, "why_killed": why}


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
    keys = _quit_keys_of(record)
    if record.holder is None or not record.holder.alive():
        if not _interrupted(store, record, keys):
            return _kill(store, record, WhyKilled.NOT_ASKED)
        asked = True
    else:
        store.update(record.id, _note_request)
        asked = _typed(record, keys)
    if asked and _ended(store, record.id, timeout_s):
        return StopOutcome(get_session(store, record.id), StopHow.STOPPED)
    return _kill(store, record, WhyKilled.TIMED_OUT)


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


def _interrupted(store: SessionStore, record: SessionRecord, keys: QuitKeys) -> bool:
    """The terminal's Ctrl+C without the terminal: a SIGINT to the agent for each Ctrl+C
    of ``keys`` (at least one); False when none could be sent (the kill decides, and says
    why). The first is sent under the record's lock, with the request noted."""
    if record.pid <= 0 or record.pid_start_time is None:  # nothing proves the pid is the agent
        return False
    presses = max(1, sum(CTRL_C in press for press in keys.presses))
    try:
        store.update(record.id, _note_request_and_interrupt)
    except _NotSignalled:
        return False
    for _press in range(presses - 1):
        time.sleep(keys.pause_s)
        if not _interrupt(get_session(store, record.id)):
            break
    return True


def _note_request_and_interrupt(record: SessionRecord) -> None:
    _note_request(record)
    if not _interrupt(record):
        raise _NotSignalled


class _NotSignalled(Exception):
    """The agent could not be sent the SIGINT: nothing is written."""


def _interrupt(record: SessionRecord) -> bool:
    """SIGINT to a running record's agent, as ``session kill`` would send its SIGTERM
    (:func:`gzia.sessions.kill.check_killable`, the live process's group)."""
    try:
        check_killable(record)
        return send_first_signal(resolve_target(record.pid, record.pid_start_time, record.pgid),
                                 signal.SIGINT)
    except (GzError, OSError):  # ended, or not ours to signal: the kill decides
        return False


def _ended(store: SessionStore, session_id: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not get_session(store, session_id).is_running:
            return True
        time.sleep(POLL_S)
    return not get_session(store, session_id).is_running


def _kill(store: SessionStore, record: SessionRecord, why: WhyKilled) -> StopOutcome:
    try:
        result = stop_session(store, record.id, keep_children=True)
    except ConflictError:  # it ended between the last look and the kill
        final = get_session(store, record.id)
        if final.end_reason != EndReason.STOPPED:
            raise
        return StopOutcome(final, StopHow.STOPPED)
    return StopOutcome(result.record, StopHow.KILLED, why, result)
