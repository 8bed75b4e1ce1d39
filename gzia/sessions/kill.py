"""``session kill``: stop a running session's agent and record it ``killed``.

Seed 000's protocol: the recorded pid must still be the agent (signal-0 probe plus its
start time, so a reused pid is never signalled), then SIGTERM, the grace (config
``kill_grace_ms``), SIGKILL if anything is left. What is signalled is decided from the
live process, never from the record alone (:mod:`gzia.supervisor.killtarget`): the
agent's whole process group when the agent leads it and the record agrees, otherwise
only the agent's process (:attr:`KillResult.target` says which, and why).

The first signal is sent under the record's lock, and only once it has been delivered is
the record marked ``killed`` (``end_reason: killed``), in the same locked write: a
signal that cannot be sent leaves the record as it was. The gz-ia that owns the run
finalizes under the same lock and keeps a ``killed`` record as it is, so whichever
writer comes second, the record says ``killed`` and the owner exits 143. A ``running``
record whose process has vanished is reconciled to ``lost`` and reported as such instead.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from gzia.contract import ConflictError, IOFailure, LockedError, SafetyBlockError
from gzia.i18n import t
from gzia.sessions.reconcile import is_stale, reconcile
from gzia.sessions.record import EndReason, SessionRecord, Status, elapsed_ms, now_rfc3339
from gzia.sessions.runner import log_lifecycle_event
from gzia.sessions.store import SessionStore
from gzia.supervisor.killtarget import KillTarget, finish_kill, resolve_target, send_first_signal


@dataclass(frozen=True)
class KillResult:
    record: SessionRecord
    signal: int | None
    """The last signal sent (SIGTERM or SIGKILL); None if nothing was sent."""
    was_lost: bool
    """The record said ``running`` but its process was already gone: now ``lost``."""
    target: KillTarget | None = None
    """What was signalled: the agent's group or only its process (None if nothing)."""


def kill_session(store: SessionStore, ref: str, grace_s: float) -> KillResult:
    session_id = store.resolve(ref)
    record = store.load(session_id)
    if is_stale(record):
        return KillResult(reconcile(store, record), None, was_lost=True)
    claim = _SignalThenClaim()
    record = store.update(session_id, claim)
    target = claim.target
    if target is None:  # cannot happen: the claim either signalled the agent or raised
        raise RuntimeError("session kill: the claim signalled nothing")
    sent = finish_kill(target, grace_s)
    log_lifecycle_event(store, session_id, t("run.event_killed", pid=record.pid), "FINISH",
                        failed=True, error="killed", duration_ms=record.duration_ms)
    with contextlib.suppress(_AlreadyRecorded):
        store.update(session_id, lambda r: _note_signal(r, sent))
    return KillResult(store.load(session_id), sent, was_lost=False, target=target)


class _SignalThenClaim:
    """Under the lock: check the record, send the first signal, then mark it ``killed``."""

    def __init__(self) -> None:
        self.target: KillTarget | None = None

    def __call__(self, record: SessionRecord) -> None:
        _check_killable(record)
        try:
            self.target = resolve_target(record.pid, record.pid_start_time, record.pgid)
            delivered = send_first_signal(self.target)
        except ProcessLookupError:
            delivered = False
        except PermissionError:
            raise IOFailure("run.kill_not_permitted", id=record.id, pid=record.pid,
                            details={"id": record.id, "pid": record.pid}) from None
        if not delivered:  # vanished between the check and the signal
            raise _vanished(record)
        record.status = Status.KILLED
        record.end_reason = EndReason.KILLED
        record.finished_at = now_rfc3339()
        record.duration_ms = elapsed_ms(record.started_at, record.finished_at)


def _check_killable(record: SessionRecord) -> None:
    """Only a live, running session whose pid could be an agent may be signalled."""
    if record.status != Status.RUNNING:
        raise ConflictError(
            "run.not_running", id=record.id, status=record.status,
            details={"id": record.id, "status": record.status}, data=record.to_json(),
        )
    if record.pid <= 0:
        raise LockedError("run.still_starting", id=record.id, details={"id": record.id})
    if record.pid == 1 or record.pid == os.getpid():
        raise SafetyBlockError("run.kill_refused_pid", id=record.id, pid=record.pid,
                               details={"id": record.id, "pid": record.pid})
    if is_stale(record):  # vanished between the first read and the lock
        raise _vanished(record)


def _vanished(record: SessionRecord) -> ConflictError:
    return ConflictError("run.not_running", id=record.id, status=Status.LOST,
                         details={"id": record.id, "status": Status.LOST})


class _AlreadyRecorded(Exception):
    """The run's owner wrote the signal first: nothing to add, so nothing is written."""


def _note_signal(record: SessionRecord, sent: int) -> None:
    if record.signal is not None:
        raise _AlreadyRecorded
    record.signal = int(sent)
    record.exit_code = 128 + int(sent)
