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
from gzia.i18n import N_
from gzia.sessions.record import SessionRecord
from gzia.sessions.run import RunEnd, SessionRun
from gzia.supervisor.endreason import EndReason

_MSG_RUN: dict[object, str] = {
    "no_output_timeout": N_("session '{id}' was stopped: no output for longer than its "
                            "--no-output-timeout"),
    "timeout": N_("session '{id}' was stopped: it ran longer than its --timeout"),
}


def run_error(run: SessionRun, *, agent_exit_status: bool = False) -> GzError:
    """``agent_exit_status`` (``--exit-code``): the error exits with the agent's own code
    (128 + N when a signal N ended it), as ``timeout``, ``env`` and ``docker run`` do."""
    error = _run_error(run)
    if agent_exit_status and run.record.exit_code is not None:
        error.exit_status = run.record.exit_code
    return error


def _run_error(run: SessionRun) -> GzError:
    record = run.record
    data = record.to_json()
    details: dict[str, object] = {"id": record.id, "status": record.status,
                                  "exit_code": record.exit_code, "signal": record.signal}
    if run.end is RunEnd.TIMED_OUT:
        return _timed_out(record, data, details)
    if run.end is RunEnd.INTERRUPTED:
        return InterruptError(N_("session '{id}' was interrupted (SIGINT)"), id=record.id,
                              hint_key=N_("see it with: gz-ia session show {id}"),
                                 data=data, details=details)
    if run.end is RunEnd.TERMINATED and record.end_reason == EndReason.STOPPED:
        return TerminatedError(N_("session '{id}' was stopped (gz-ia session stop)"),
                               id=record.id, hint_key=N_("see it with: gz-ia session show {id}"),
                               data=data, details=details)
    if run.end is RunEnd.TERMINATED:
        return TerminatedError(N_("session '{id}' was terminated ({signal})"), id=record.id,
                               hint_key=N_("see it with: gz-ia session show {id}"),
                               data=data, details=details, signal=_signal_name(record.signal))
    return AgentFailedError(N_("the agent of session '{id}' exited with code {code}"), id=record.id,
                            hint_key=N_("see it with: gz-ia session show {id}"),
                            data=data, details=details, code=record.exit_code)


def _timed_out(record: SessionRecord, data: object, details: dict[str, object]) -> GzError:
    """``--timeout`` or ``--no-output-timeout`` stopped the agent: the message names which."""
    return TimeoutFailure(_MSG_RUN[record.end_reason], id=record.id,
                          hint_key=N_("see it with: gz-ia session show {id}"),
                          data=data, details={**details, "end_reason": record.end_reason})


def _signal_name(number: int | None) -> str:
    if number is None:
        return "SIGTERM"
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
