"""The end of a run: its one final write and how it ended.

The record is finalized exactly once, under the store's lock: ``completed``/``failed``
with the exit code, or ``killed`` with ``end_reason`` and ``signal``; a record that
``session kill`` marked ``killed`` meanwhile stays ``killed``. :func:`run_end` then says
how the run ended for gz-ia (:class:`RunEnd`). The holder uses the same functions.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path

from gzia.contract import GzError, InterruptError, TerminatedError
from gzia.drivers.base import Driver
from gzia.i18n import NC_, gettext
from gzia.sessions.agent_state import Transition, log_transition, mark_exited
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.record import SessionRecord, Status, elapsed_ms, now_rfc3339, parse_rfc3339
from gzia.sessions.run.request import RunEnd
from gzia.sessions.store import SessionStore
from gzia.supervisor.endreason import ASKED_REASONS, WATCHDOG_REASONS, EndReason
from gzia.supervisor.procinfo import process_start_time
from gzia.supervisor.run import RunOutcome, Started

_MSG_EVENT_FINISHED: dict[object, str] = {
    "failed": NC_("run.event_finished_failed", "session finished"),
    "ok": NC_("run.event_finished_ok", "session finished"),
}

STOPPED_BY_USER = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGKILL, signal.SIGHUP})
ENDED_ITSELF = frozenset({EndReason.PROCESS_EXIT, EndReason.SIGNAL})
"""End reasons of an agent that ended without gz-ia's watchdog or kill."""


def conversation_after_exit(
    driver: Driver, record: SessionRecord, cwd: Path, env: Mapping[str, str]
) -> str | None:
    """The conversation id of an agent that chooses it itself (pi, opencode), found once it
    has exited, for a record that has none yet: metrics and resume then need no guess."""
    find = getattr(driver, "conversation_after_exit", None)
    if record.conversation_id is not None or find is None:
        return None
    try:
        since = parse_rfc3339(record.started_at).timestamp()
        found = find(cwd, env, since)
    except Exception:  # a lookup that fails must not change how the run ends
        return None
    return found if isinstance(found, str) else None


def finalize_run(
    store: SessionStore, session_id: str, outcome: RunOutcome,
    conversation_id: str | None = None, quit_signals: frozenset[int] = frozenset(),
) -> SessionRecord:
    """The one final write of a run (the agent's state ``exited`` with it), then its
    ``session finished`` event. ``quit_signals``: the signals the agent dies of when the
    person quits it (its driver's)."""
    exited: list[Transition | None] = []

    def mutate(record: SessionRecord) -> None:
        _finalize(record, outcome, conversation_id, quit_signals)
        exited.append(mark_exited(record))

    final = store.update(session_id, mutate)
    log_transition(store, exited[0])
    _log_finish(store, final)
    return final


def _log_finish(store: SessionStore, record: SessionRecord) -> None:
    failed = record.status != Status.COMPLETED
    error = None
    if failed:
        error = f"{record.status}: {record.end_reason}, exit code {record.exit_code}"
    action = gettext(_MSG_EVENT_FINISHED["failed" if failed else "ok"])
    log_lifecycle_event(store, record.id, action, "FINISH", failed=failed,
                        error=error, duration_ms=record.duration_ms)


def record_agent(record: SessionRecord, started: Started) -> None:
    """The agent's identity in its record (``NOT_STARTED``: none, its exec failed)."""
    record.pid = started.pid
    record.pgid = started.pgid or None
    record.pid_start_time = process_start_time(started.pid) if started.pid else None


def finalize_unstarted(
    store: SessionStore, session_id: str, exc: BaseException
) -> SessionRecord | None:
    """A run that ended before its agent started: ``killed``/``canceled`` when gz-ia was
    interrupted or terminated, else ``failed``/``spawn_failed``. A started run is left to
    the owner's final write (or to reconcile, which turns it ``lost``)."""
    canceled = isinstance(exc, KeyboardInterrupt | InterruptError | TerminatedError)
    exited: list[Transition | None] = []

    def mutate(record: SessionRecord) -> None:
        if record.status != Status.RUNNING or record.pid:
            return
        record.status = Status.KILLED if canceled else Status.FAILED
        record.end_reason = EndReason.CANCELED if canceled else EndReason.SPAWN_FAILED
        record.exit_code = 1
        _stamp_finish(record)
        exited.append(mark_exited(record))

    try:
        final = store.update(session_id, mutate)
    except (GzError, OSError):
        return None
    log_transition(store, exited[0] if exited else None)
    return final


def _finalize(
    record: SessionRecord, outcome: RunOutcome, conversation_id: str | None = None,
    quit_signals: frozenset[int] = frozenset(),
) -> None:
    """The one final write of a run (under the record's lock)."""
    if conversation_id is not None and record.conversation_id is None:
        record.conversation_id = conversation_id
    record.signal = outcome.signal  # the owner saw how the agent ended: its word is final
    record.exit_code = agent_exit_status(outcome)
    if record.status == Status.KILLED:  # ``session kill`` got there first: it stays killed
        return
    record.end_reason = outcome.end_reason
    record.status = _final_status(outcome, quit_signals)
    if record.stop_requested_at is not None and outcome.end_reason in ENDED_ITSELF:
        record.end_reason = EndReason.STOPPED  # asked by ``session stop``, it ended itself
        record.status = Status.KILLED
    _stamp_finish(record)


def _final_status(outcome: RunOutcome, quit_signals: frozenset[int] = frozenset()) -> Status:
    if outcome.end_reason not in (EndReason.PROCESS_EXIT, EndReason.SIGNAL):
        return Status.KILLED  # gz-ia stopped it: canceled, timeout, no_output_timeout
    if outcome.signal in quit_signals and outcome.received_signal is None:
        return Status.COMPLETED  # the person quit the agent its own way (opencode's Ctrl+C)
    if outcome.signal is not None:
        return Status.KILLED if outcome.signal in STOPPED_BY_USER else Status.FAILED
    return Status.COMPLETED if outcome.exit_code == 0 else Status.FAILED


def _stamp_finish(record: SessionRecord) -> None:
    record.finished_at = now_rfc3339()
    record.duration_ms = elapsed_ms(record.started_at, record.finished_at)


def agent_exit_status(outcome: RunOutcome) -> int:
    """The agent's own code as a shell reports it: its exit status, or 128 + signal."""
    if outcome.signal is not None:
        return 128 + outcome.signal
    return outcome.exit_code if outcome.exit_code is not None else 1


def run_end(record: SessionRecord, outcome: RunOutcome, late_signal: int | None) -> RunEnd:
    """How the run ended: a watchdog first, then a stop sent to gz-ia (during the run or
    while it recorded), ``session kill``, a SIGINT/SIGTERM to the agent, its own exit."""
    if record.end_reason in WATCHDOG_REASONS:
        return RunEnd.TIMED_OUT  # gz-ia stopped it, not a signal from outside
    received = outcome.received_signal or late_signal
    if received is not None:
        return RunEnd.stopped_by(received)
    if record.status == Status.KILLED and record.end_reason in ASKED_REASONS:
        return RunEnd.TERMINATED  # ``gz-ia session kill`` or ``session stop``
    if record.status == Status.COMPLETED:
        return RunEnd.COMPLETED  # its exit 0, or the person's own quit (a quit signal)
    return _AGENT_DIED_OF.get(outcome.signal or 0, RunEnd.AGENT_FAILED)


_AGENT_DIED_OF: dict[int, RunEnd] = {signal.SIGINT: RunEnd.INTERRUPTED,
                                     signal.SIGTERM: RunEnd.TERMINATED}
"""An agent that died of SIGINT or SIGTERM (sent by someone else) ends the run as gz-ia's
own Ctrl+C or SIGTERM would."""
