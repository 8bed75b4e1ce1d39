"""What chat, exec and resume share: the watchdog from config, the launch line, the result.

Every run ends with the session record as ``data``: on success through ``output.emit``,
otherwise inside the error (``AGENT_FAILED`` exit 1, ``INTERRUPTED`` 130, ``TERMINATED``
143), so ``data.id`` is always the session id.
"""

from __future__ import annotations

import signal

from gzia.cli import output
from gzia.contract import (
    AgentFailedError,
    GzError,
    InterruptError,
    TerminatedError,
    TimeoutFailure,
)
from gzia.i18n import t
from gzia.sessions.record import SessionRecord
from gzia.sessions.runner import WATCHDOG_REASONS, SessionRun
from gzia.sessions.workspace import Workspace
from gzia.supervisor.watchdog import Watchdog


def configured_watchdog(
    timeout_s: float | None = None, no_output_timeout_s: float | None = None
) -> Watchdog:
    from gzia.config import load_config

    return Watchdog(kill_grace_ms=int(load_config().get("kill_grace_ms")),
                    timeout_s=timeout_s, no_output_timeout_s=no_output_timeout_s)


def workspace_label(workspace: Workspace) -> str:
    if workspace.is_isolated and workspace.base_dir is not None:  # a linked worktree's
        base = workspace.base_branch or (workspace.base_commit or "HEAD")[:12]
        return t("run.workspace_isolated_from", path=str(workspace.worktree_dir), base=base)
    if workspace.is_isolated:
        return t("run.workspace_isolated", id=workspace.session_id)
    return t("run.workspace_direct")


def report_run(run: SessionRun) -> None:
    data = run.record.to_json()
    if run.exit_code == 0:
        output.emit(data, human=lambda: _finished(run.record))
        return
    raise run_error(run)


def _finished(record: SessionRecord) -> None:
    output.progress(t("run.finished_ok", id=record.id))
    if record.is_isolated:
        output.progress(t("run.next_steps", id=record.id))


def run_error(run: SessionRun) -> GzError:
    record = run.record
    data = record.to_json()
    details = {"id": record.id, "status": record.status, "exit_code": record.exit_code,
               "signal": record.signal}
    if record.end_reason in WATCHDOG_REASONS:
        return _timed_out(record, data, details)
    if run.exit_code == 130:
        return InterruptError("run.agent_interrupted", id=record.id, hint_key="run.show_hint",
                                 data=data, details=details)
    if run.exit_code == 143:
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
