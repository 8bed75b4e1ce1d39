"""The error a run that did not complete ends with: ``AGENT_FAILED`` (exit 1),
``INTERRUPTED`` (130), ``TERMINATED`` (143) or ``TIMEOUT``, carrying the session record as
``data`` (so ``data.id`` is always the session id). The command line raises it; the
terminal UI shows it."""

from __future__ import annotations

import signal

from gzia.contract import (
    AgentFailedError,
    GzError,
    InterruptError,
    TerminatedError,
    TimeoutFailure,
)
from gzia.sessions.record import SessionRecord
from gzia.sessions.run import RunEnd, SessionRun


def run_error(run: SessionRun) -> GzError:
    record = run.record
    data = record.to_json()
    details: dict[str, object] = {"id": record.id, "status": record.status,
                                  "exit_code": record.exit_code, "signal": record.signal}
    if run.end is RunEnd.TIMED_OUT:
        return _timed_out(record, data, details)
    if run.end is RunEnd.INTERRUPTED:
        return InterruptError("run.agent_interrupted", id=record.id, hint_key="run.show_hint",
                                 data=data, details=details)
    if run.end is RunEnd.TERMINATED:
        return TerminatedError("run.agent_terminated", id=record.id, hint_key="run.show_hint",
                               data=data, details=details, signal=_signal_name(record.signal))
    return AgentFailedError("run.agent_failed", id=record.id, hint_key="run.show_hint",
                            data=data, details=details, code=record.exit_code)


def _timed_out(record: SessionRecord, data: object, details: dict[str, object]) -> GzError:
    """``--timeout`` or ``--no-output-timeout`` stopped the agent: the message names which."""
    return TimeoutFailure(f"run.{record.end_reason}", id=record.id, hint_key="run.show_hint",
                          data=data, details={**details, "end_reason": record.end_reason})


def _signal_name(number: int | None) -> str:
    if number is None:
        return "SIGTERM"
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
