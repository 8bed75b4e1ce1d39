"""Reconcile: a ``running`` record whose process is gone becomes ``lost``.

The original gz-ia left such records ``running`` forever (gz-ia killed by Ctrl+C, a
crash, a reboot). Here every command that reads records passes them through
:func:`reconcile`: if the recorded process is dead, a zombie, or its pid now belongs to
another process (the start time differs), the record is rewritten under its lock as
``lost``, ``end_reason: lost``. A record still being set up (pid 0) is left alone for
:data:`SETUP_DEADLINE_S`; setting up takes milliseconds, so a ``running`` record still
without a pid after that was left by a gz-ia that died in that moment, and is ``lost``.
When the record cannot be written (a read-only store, a writer holding the lock), the
command still sees ``lost``; the next reader writes it.
"""

from __future__ import annotations

from gzia.contract import LockedError
from gzia.sessions.record import (
    EndReason,
    SessionRecord,
    Status,
    elapsed_ms,
    now_rfc3339,
    parse_rfc3339,
)
from gzia.sessions.store import ListResult, SessionStore

RECONCILE_LOCK_TIMEOUT = 1.0
SETUP_DEADLINE_S = 300.0
"""How long a ``running`` record may stay without a pid (being set up) before it is lost."""


def is_stale(record: SessionRecord) -> bool:
    """A ``running`` record whose process no longer runs (or never got one)."""
    if not record.is_running:
        return False
    if _holder_alive(record):
        return False  # a background run's holder finalizes it (it may be reaping the agent)
    if record.pid < 0:
        return True  # no process can have it: a corrupt or hand-edited record
    if record.pid == 0:
        return not _still_setting_up(record.started_at)
    from gzia.supervisor.procinfo import is_process_alive  # only for running records

    return not is_process_alive(record.pid, record.pid_start_time)


def _holder_alive(record: SessionRecord) -> bool:
    if "holder" not in record.extras:
        return False
    from gzia.sessions.background import HolderRef

    holder = HolderRef.of(record)
    return holder is not None and holder.alive()


def _still_setting_up(started_at: str) -> bool:
    """Started less than :data:`SETUP_DEADLINE_S` ago, by this machine's clock (a start
    time that does not parse, or lies further in the future than that, never was)."""
    from datetime import UTC, datetime

    try:
        started = parse_rfc3339(started_at)
    except ValueError:
        return False
    return abs((datetime.now(UTC) - started).total_seconds()) <= SETUP_DEADLINE_S


def reconcile(store: SessionStore, record: SessionRecord) -> SessionRecord:
    """The record, marked ``lost`` first if its process vanished without a final write."""
    return _marked_lost(store, record) if is_stale(record) else record


def _marked_lost(store: SessionStore, record: SessionRecord) -> SessionRecord:
    """A stale record, written as ``lost`` under its lock (or only reported so)."""
    try:
        return store.update(record.id, _mark_lost_if_still_stale, timeout=RECONCILE_LOCK_TIMEOUT)
    except (OSError, LockedError):
        # Read-only store, or another writer busy with it: report the truth, write later.
        _mark_lost_if_still_stale(record)
        return record


def _mark_lost_if_still_stale(record: SessionRecord) -> None:
    # Re-checked under the lock: the exit handler may have written the outcome meanwhile.
    if not is_stale(record):
        return
    record.status = Status.LOST
    record.end_reason = EndReason.LOST
    record.finished_at = now_rfc3339()
    record.duration_ms = elapsed_ms(record.started_at, record.finished_at)


def get_session(store: SessionStore, ref: str) -> SessionRecord:
    """Resolve ``ref`` (an id or a unique prefix), load and reconcile the record."""
    return reconcile(store, store.load(store.resolve(ref)))


def list_sessions(store: SessionStore) -> ListResult:
    """Every record (newest first), reconciled (a changed record loses its read text)."""
    result = store.list()
    for index, record in enumerate(result.records):
        if is_stale(record):
            result.records[index] = _marked_lost(store, record)
            result.texts.pop(record.id, None)
    return result
