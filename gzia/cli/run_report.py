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
from gzia.sessions.run import RunEnd, SessionRun
from gzia.sessions.workspace import Workspace
from gzia.supervisor.watchdog import Watchdog

LISTED_FILES = 20
"""How many of the base's uncommitted files a warning lists in ``details.files``."""


PROFILE_HELP = "Project this profile into the session's worktree (repeatable)."
ALLOW_PUSH_HELP = "Let the agent run git push (refused in sessions otherwise)."


def push_allowed(flag: bool) -> bool:
    """``--allow-push``, else the ``allow_push`` setting."""
    from gzia.config import load_config

    return flag or bool(load_config().get("allow_push"))


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


def warn_if_unguarded(workspace: Workspace) -> None:
    """Say when the agent runs without the git guardrails (git too old for them)."""
    from gzia.sessions.guard import MINIMUM_GIT, git_too_old

    version = git_too_old() if workspace.is_isolated else None
    if version is not None:
        minimum = ".".join(map(str, MINIMUM_GIT))
        output.warn("GUARDRAILS_OFF", "launch.guardrails_off", version=version, minimum=minimum,
                    details={"git_version": version, "minimum": minimum})


def warn_if_base_has_changes(workspace: Workspace) -> None:
    """Say when the base has uncommitted changes that a new session does not get."""
    from gzia.sessions.workspace import uncommitted_in_base

    paths = uncommitted_in_base(workspace)
    if not paths:
        return
    base = str(workspace.base_dir or workspace.working_dir)
    commit = (workspace.base_commit or "HEAD")[:12]
    output.warn("UNCOMMITTED_CHANGES", "launch.uncommitted_base", count=len(paths), base=base,
                commit=commit, details={"base": base, "base_commit": workspace.base_commit,
                                        "count": len(paths), "files": paths[:LISTED_FILES]})


def report_run(run: SessionRun) -> None:
    data = run.record.to_json()
    if run.reused is not None:
        _report_reused(run)
        return
    if run.end is RunEnd.COMPLETED:
        output.emit(data, human=lambda: _finished(run.record))
        return
    raise run_error(run)


def _report_reused(run: SessionRun) -> None:
    """The idempotency key's session answered: no new run; its record, whatever its state."""
    record = run.record
    if run.reused is not None and run.reused.metadata_differs:
        output.warn("IDEMPOTENCY_METADATA_DIFFERS", "run.idempotency_metadata_differs",
                    id=record.id, fields=", ".join(run.reused.metadata_differs),
                    details={"session_id": record.id,
                             "differs": run.reused.metadata_differs})
    output.emit(record.to_json(), human=lambda: output.progress(
        t("run.idempotency_reused", id=record.id, status=record.status)))


def _finished(record: SessionRecord) -> None:
    output.progress(t("run.finished_ok", id=record.id))
    if record.is_isolated:
        output.progress(t("run.next_steps", id=record.id))


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
