"""Reconcile: a ``running`` record whose process is gone becomes ``lost``.

The original gz-ia left such records ``running`` forever (gz-ia killed by Ctrl+C, a
crash, a reboot). Here every command that reads records passes them through
:func:`reconcile`: if the recorded process is dead, a zombie, or its pid now belongs to
another process (the start time differs), the record is rewritten under its lock as
``lost``, ``end_reason: lost``, with no duration (when the process ended is unknown;
``finished_at`` is when gz-ia noticed).

The gz-ia that runs the agent (the record's owner: ``owner_pid`` and its start time)
alone decides the final status while it lives. So a record whose owner is alive is never
stale: not while it sets up (pid 0), and not in the moment between the agent's exit and
the owner's final write (:func:`wait_for_owner` lets ``kill`` and ``delete`` wait for
that write). A record whose owner is gone is stale as soon as its agent is (pid 0: at
once, gz-ia died while setting up). A record that names no owner (the original gz-ia's,
or one written before owners were recorded) is judged by its agent alone, and one still
without a pid is left alone for :data:`SETUP_DEADLINE_S`. When the record cannot be
written (a read-only store, a writer holding the lock), the command still sees ``lost``;
the next reader writes it.

A listing writes what it reconciles for at most :data:`LIST_WRITE_BUDGET_S`; records past
that are reported ``lost`` too and written by later readers. Each write holds a lock and
syncs a file: thousands of records left ``running`` by a gz-ia killed at once (a reboot)
would otherwise make the first listing many times slower than any other.
"""

from __future__ import annotations

from pathlib import Path

from gzia.contract import LockedError, SafetyBlockError
from gzia.sessions.record import (
    SessionRecord,
    Status,
    now_rfc3339,
    parse_rfc3339,
)
from gzia.sessions.store import ListResult, SessionStore
from gzia.supervisor.endreason import EndReason

RECONCILE_LOCK_TIMEOUT = 1.0
LIST_WRITE_BUDGET_S = 0.05
"""How long one listing spends writing reconciled records; the rest wait for later readers."""
SETUP_DEADLINE_S = 300.0
"""How long a ``running`` record may stay without a pid (being set up) before it is lost."""


OWNER_WAIT_S = 3.0
"""How long ``kill`` and ``delete`` wait for a live owner's final write."""


def is_stale(record: SessionRecord) -> bool:
    """A ``running`` record whose process no longer runs (or never got one), and whose
    owner is not alive to write how it ended."""
    if not record.is_running:
        return False
    if _holder_alive(record):
        return False  # a background run's holder finalizes it (it may be reaping the agent)
    if record.pid < 0:
        return True  # no process can have it: a corrupt or hand-edited record
    if record.pid == 0:
        owner = owner_alive(record)
        return not _still_setting_up(record.started_at) if owner is None else not owner
    # lazy: start-up speed (running records only)
    from gzia.supervisor.procinfo import is_process_alive

    if is_process_alive(record.pid, record.pid_start_time):
        return False
    return owner_alive(record) is not True


GZ_IA_NAMES = ("gz-ia", "gzia")
"""What one of a gz-ia process's first arguments holds (``gz-ia``, ``gz-ia.pyz``,
``python -m gzia``, a holder's ``python -P -m gzia``)."""
OWNER_WORDS = 4
"""How many leading arguments may name gz-ia (``python -P -m gzia`` needs four)."""


def owner_alive(record: SessionRecord) -> bool | None:
    """Whether the gz-ia that owns the run still runs; None when the record names none
    (an owner without its start time proves nothing either). A live process counts as
    the owner only if it is a gz-ia: a crafted record naming some long-lived process
    must not keep its session ``running`` forever."""
    if record.owner_pid is None or record.owner_start_time is None:
        return None
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.procinfo import command_line, is_process_alive

    if not is_process_alive(record.owner_pid, record.owner_start_time):
        return False
    arguments = command_line(record.owner_pid) or []
    return any(name in Path(arg).name for arg in arguments[:OWNER_WORDS]
               for name in GZ_IA_NAMES)


def agent_ended(record: SessionRecord) -> bool:
    """A ``running`` record whose agent is gone while its owner lives: the owner is about
    to write how it ended."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.procinfo import is_process_alive

    return (record.is_running and record.pid > 0 and owner_alive(record) is True
            and not is_process_alive(record.pid, record.pid_start_time))


def wait_for_owner(store: SessionStore, record: SessionRecord,
                   timeout: float = OWNER_WAIT_S) -> SessionRecord:
    """The record once its live owner has written the final status (at most ``timeout``
    seconds after the agent ended; then as it is). The owner itself (a holder asked to
    kill) does not wait for its own write."""
    import os
    import time

    if record.owner_pid == os.getpid():
        return record

    deadline = time.monotonic() + timeout
    while agent_ended(record) and time.monotonic() < deadline:
        time.sleep(0.02)
        record = store.load(record.id)
    return record


def _holder_alive(record: SessionRecord) -> bool:
    return record.holder is not None and record.holder.alive()


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
    except (OSError, LockedError, SafetyBlockError):
        # Read-only store, another writer busy with it, or a lock file that is a symbolic
        # link (never followed): report the truth, write later.
        _mark_lost_if_still_stale(record)
        return record


def _mark_lost_if_still_stale(record: SessionRecord) -> None:
    # Re-checked under the lock: the exit handler may have written the outcome meanwhile.
    if not is_stale(record):
        return
    record.status = Status.LOST
    record.end_reason = EndReason.LOST
    record.finished_at = now_rfc3339()  # when gz-ia noticed, not when it ended
    record.duration_ms = None  # unknown: the process ended unseen, at some earlier time


def get_session(store: SessionStore, ref: str) -> SessionRecord:
    """Resolve ``ref`` (an id or a unique prefix), load and reconcile the record."""
    return reconcile(store, store.load(store.resolve(ref)))


def list_sessions(store: SessionStore) -> ListResult:
    """Every record (newest first), reconciled (a changed record loses its read text).

    Writes stop once :data:`LIST_WRITE_BUDGET_S` is spent; later stale records are only
    reported ``lost``.
    """
    import time

    result = store.list()
    deadline = time.monotonic() + LIST_WRITE_BUDGET_S
    for index, record in enumerate(result.records):
        if is_stale(record):
            if time.monotonic() < deadline:
                result.records[index] = _marked_lost(store, record)
            else:
                _mark_lost_if_still_stale(record)
            result.texts.pop(record.id, None)
    return result
