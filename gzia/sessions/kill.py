"""``session kill``: stop a running session's whole process group and record it ``killed``.

Seed 000's protocol, by process group: the recorded pid must still be the agent (signal-0
probe plus its start time, so a reused pid is never signalled), then SIGTERM to the group,
the grace (config ``kill_grace_ms``), SIGKILL to the group if anything is left.

The record is marked ``killed`` (``end_reason: killed``) under its lock *before* any
signal is sent. The gz-ia that owns the run finalizes under the same lock and keeps a
``killed`` record as it is, so whichever writer comes second, the record says ``killed``
and the owner exits 143. A ``running`` record whose process has vanished is reconciled to
``lost`` and reported as such instead.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from gzia.contract import ConflictError, LockedError
from gzia.sessions.reconcile import is_stale, reconcile
from gzia.sessions.record import EndReason, SessionRecord, Status, elapsed_ms, now_rfc3339
from gzia.sessions.runner import log_lifecycle_event
from gzia.sessions.store import SessionStore
from gzia.supervisor.treekill import kill_process_group


@dataclass(frozen=True)
class KillResult:
    record: SessionRecord
    signal: int | None
    """The last signal sent to the group (SIGTERM or SIGKILL); None if nothing was sent."""
    was_lost: bool
    """The record said ``running`` but its process was already gone: now ``lost``."""


def kill_session(store: SessionStore, ref: str, grace_s: float) -> KillResult:
    session_id = store.resolve(ref)
    record = store.load(session_id)
    if is_stale(record):
        return KillResult(reconcile(store, record), None, was_lost=True)
    record = store.update(session_id, _claim_kill)
    pgid = record.pgid or record.pid
    sent = kill_process_group(pgid, grace_s)
    log_lifecycle_event(store, session_id, f"session killed (kill PID {record.pid})", "FINISH",
                        failed=True, error="killed", duration_ms=record.duration_ms)
    if sent is not None:
        with contextlib.suppress(_AlreadyRecorded):
            store.update(session_id, lambda r: _note_signal(r, sent))
    return KillResult(store.load(session_id), sent, was_lost=False)


def _claim_kill(record: SessionRecord) -> None:
    """Under the lock: only a live, running session may be marked ``killed``."""
    if record.status != Status.RUNNING:
        raise ConflictError(
            "run.not_running", id=record.id, status=record.status,
            details={"id": record.id, "status": record.status}, data=record.to_json(),
        )
    if record.pid <= 0:
        raise LockedError("run.still_starting", id=record.id, details={"id": record.id})
    if is_stale(record):  # vanished between the first read and the lock
        raise ConflictError("run.not_running", id=record.id, status=Status.LOST,
                            details={"id": record.id, "status": Status.LOST})
    record.status = Status.KILLED
    record.end_reason = EndReason.KILLED
    record.finished_at = now_rfc3339()
    record.duration_ms = elapsed_ms(record.started_at, record.finished_at)


class _AlreadyRecorded(Exception):
    """The run's owner wrote the signal first: nothing to add, so nothing is written."""


def _note_signal(record: SessionRecord, sent: int) -> None:
    if record.signal is not None:
        raise _AlreadyRecorded
    record.signal = int(sent)
    record.exit_code = 128 + int(sent)
