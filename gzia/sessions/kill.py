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
from pathlib import Path

from gzia.contract import ConflictError, GzError, IOFailure, LockedError, SafetyBlockError
from gzia.drivers.registry import get_driver
from gzia.i18n import N_, gettext
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.reconcile import is_stale, owner_alive, reconcile, wait_for_owner
from gzia.sessions.record import SessionRecord, Status, elapsed_ms, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.endreason import EndReason
from gzia.supervisor.killtarget import (
    KillTarget,
    describe_command,
    finish_kill,
    never_signalled,
    resolve_target,
    runs_one_of,
    send_first_signal,
)


@dataclass(frozen=True)
class KillResult:
    record: SessionRecord
    signal: int | None
    """The last signal sent (SIGTERM or SIGKILL); None if nothing was sent."""
    was_lost: bool
    """The record said ``running`` but its process was already gone: now ``lost``."""
    target: KillTarget | None = None
    """What was signalled: the agent's group or only its process (None if nothing)."""


def kill_session(store: SessionStore, ref: str, grace_s: float, *,
                 force: bool = False) -> KillResult:
    """``force``: signal the recorded pid even when the record cannot prove it is the
    agent (no start time) and it runs none of the agent's programs."""
    session_id = store.resolve(ref)
    for _attempt in range(KILL_ATTEMPTS):
        record = wait_for_owner(store, store.load(session_id))
        if is_stale(record):
            return KillResult(reconcile(store, record), None, was_lost=True)
        claim = _SignalThenClaim(force=force)
        try:
            record = store.update(session_id, claim)
        except _OwnerFinishing:  # the agent ended meanwhile: wait for its owner, again
            continue
        return _finish(store, record, claim, grace_s)
    raise LockedError(N_("the agent of session '{id}' has ended and the gz-ia running it is still "
                         "writing how; try again in a moment"),
                      id=session_id, details={"id": session_id})


KILL_ATTEMPTS = 2


def _finish(store: SessionStore, record: SessionRecord, claim: _SignalThenClaim,
            grace_s: float) -> KillResult:
    """After the first signal: the grace, SIGKILL if needed, the event and the signal."""
    target = claim.target
    if target is None:  # cannot happen: the claim either signalled the agent or raised
        raise RuntimeError("session kill: the claim signalled nothing")
    sent = finish_kill(target, grace_s)
    log_lifecycle_event(store, record.id,
                        gettext("session killed (kill PID {pid})", pid=record.pid), "FINISH",
                        failed=True, error="killed", duration_ms=record.duration_ms)
    with contextlib.suppress(_AlreadyRecorded):
        store.update(record.id, lambda r: _note_signal(r, sent))
    return KillResult(store.load(record.id), sent, was_lost=False, target=target)


class _SignalThenClaim:
    """Under the lock: check the record, send the first signal, then mark it ``killed``."""

    def __init__(self, *, force: bool) -> None:
        self.target: KillTarget | None = None
        self.force = force

    def __call__(self, record: SessionRecord) -> None:
        check_killable(record)
        if record.pid_start_time is None and not self.force:
            _refuse_unproven(record)
        try:
            self.target = resolve_target(record.pid, record.pid_start_time, record.pgid)
            delivered = send_first_signal(self.target)
        except ProcessLookupError:
            delivered = False
        except PermissionError:
            raise IOFailure(N_("cannot stop session '{id}': no permission to signal PID {pid}"),
                            id=record.id, pid=record.pid,
                            details={"id": record.id, "pid": record.pid}) from None
        if not delivered:  # vanished between the check and the signal
            raise _vanished(record)
        record.status = Status.KILLED
        record.end_reason = EndReason.KILLED
        record.finished_at = now_rfc3339()
        record.duration_ms = elapsed_ms(record.started_at, record.finished_at)


def check_killable(record: SessionRecord) -> None:
    """Only a live, running session whose pid could be an agent may be signalled."""
    if record.status != Status.RUNNING:
        raise ConflictError(
            N_("session '{id}' is not running (current status: {status})"), id=record.id,
            status=record.status,
            details={"id": record.id, "status": record.status}, data=record.to_json(),
        )
    if record.pid <= 0:
        raise LockedError(N_("session '{id}' is still starting; try again in a moment"),
                          id=record.id, details={"id": record.id})
    if never_signalled(record.pid):  # pid 1, gz-ia, or what gz-ia runs under
        key = N_("session '{id}' names PID {pid}, which gz-ia will not signal; the record was left "
                 "as it is") if record.pid in (1, os.getpid()) else \
            N_("session '{id}' names PID {pid}, a process gz-ia runs under (its caller or one of "
               "its parents), which gz-ia never signals; the record was left as it is")
        raise SafetyBlockError(key, id=record.id, pid=record.pid,
                               details={"id": record.id, "pid": record.pid})
    if is_stale(record):  # vanished between the first read and the lock
        raise _vanished(record)


def _refuse_unproven(record: SessionRecord) -> None:
    """A record without a start time (the original gz-ia's, or a crafted one) names a pid
    it cannot prove: only a process running one of the agent's programs is signalled."""
    programs = agent_programs(record)
    if runs_one_of(record.pid, programs):
        return
    command = describe_command(record.pid)
    expected = ", ".join(sorted(programs)) or "?"
    raise SafetyBlockError(
        N_("session '{id}' has no start time to prove that PID {pid} is still its agent, and that "
           "process ({command}) runs none of the agent's programs ({expected}): nothing was "
           "signalled"),
        id=record.id, pid=record.pid, command=command, expected=expected,
        hint_key=N_("if PID {pid} is the agent: gz-ia session kill --force {id}"),
        details={"id": record.id, "pid": record.pid, "command": command,
                 "expected": sorted(programs)})


def agent_programs(record: SessionRecord) -> frozenset[str]:
    """File names of the programs the record's agent runs: an ``exec`` session's command,
    and its driver's executable."""
    programs = set()
    if record.command:
        programs.add(Path(record.command[0]).name)
    with contextlib.suppress(GzError):
        programs.add(get_driver(record.provider).binary)
    return frozenset(programs - {""})


class _OwnerFinishing(Exception):
    """The agent is gone but its owner lives: the owner writes how it ended."""


def _vanished(record: SessionRecord) -> Exception:
    if record.owner_pid == os.getpid():  # a holder asked to kill: it writes the end itself
        return LockedError(N_("the agent of session '{id}' has ended and the gz-ia running it is "
                              "still writing how; try again in a moment"),
                           id=record.id, details={"id": record.id})
    if owner_alive(record):
        return _OwnerFinishing()
    return ConflictError(N_("session '{id}' is not running (current status: {status})"),
                         id=record.id, status=Status.LOST,
                         details={"id": record.id, "status": Status.LOST})


class _AlreadyRecorded(Exception):
    """The run's owner wrote the signal first: nothing to add, so nothing is written."""


def _note_signal(record: SessionRecord, sent: int) -> None:
    if record.signal is not None:
        raise _AlreadyRecorded
    record.signal = int(sent)
    record.exit_code = 128 + int(sent)
