"""What a kill may signal: the agent's process group, or only the agent's process.

A session record names the agent (pid and start time) and its process group (``pgid``),
but a record is only a file: it may be corrupt, hand-edited, or written by the original
gz-ia, which kept no ``pgid`` and started agents inside its own group. So the group is
never taken from the record. Once the pid has been checked against its recorded start
time, the group it really belongs to is read from the system (``getpgid``), and that
group is signalled only when all of these hold:

- the agent leads it (``getpgid(pid) == pid``): gz-ia starts every agent as the leader
  of a new group, so any other group belongs to something else as well;
- the record names that same group, or names none (a record of the original gz-ia);
- it is greater than 1 (``killpg(1)`` would reach every process the user may signal);
- it is neither gz-ia's own group nor its caller's.

Otherwise only the process is signalled, with the same protocol (SIGTERM, SIGCONT, the
grace, SIGKILL), and the result says why (:attr:`KillTarget.reason`): its children may
outlive it.

Some processes are never signalled at all, whatever a record says
(:func:`never_signalled`): gz-ia itself and every process it descends from (the shell
that called it, a terminal, an init), and pid 1. A record without a start time cannot
prove that its pid is still the agent: :func:`runs_one_of` tells whether the process
runs one of the agent's programs, so the caller can refuse anything else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.supervisor.procinfo import ancestors, command_line, is_process_alive
from gzia.supervisor.treekill import signal_group, wait_group_gone
from gzia.supervisor.watchdog import POLL_INTERVAL_S

PGID_MISMATCH = "pgid_mismatch"
"""The record names a group the process is not in (corrupt, edited, or invalid)."""
NOT_GROUP_LEADER = "not_group_leader"
"""The process is in a group it does not lead (as in records of the original gz-ia)."""
UNSAFE_GROUP = "unsafe_group"
"""The process is in group 1 (or a group id that cannot be a job's)."""
CALLER_GROUP = "caller_group"
"""The process is in gz-ia's own group or its caller's: signalling it would stop them."""

SIGKILL_WAIT_S = 5.0
COMMAND_WORDS = 3
"""How many leading arguments may name the agent's program (interpreter, script, ...)."""
COMMAND_SHOWN = 200


@dataclass(frozen=True)
class KillTarget:
    pid: int
    start_time: str | None
    pgid: int
    """The group the process really is in (read from the system)."""
    recorded_pgid: int | None
    reason: str | None
    """Why only the process is signalled; None when its whole group is."""

    @property
    def whole_group(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {"signalled": "group" if self.whole_group else "process", "pid": self.pid,
                "pgid": self.pgid, "recorded_pgid": self.recorded_pgid, "reason": self.reason}


def choose_target(
    pid: int,
    start_time: str | None,
    recorded_pgid: int | None,
    actual_pgid: int,
    protected_pgids: frozenset[int],
) -> KillTarget:
    """The decision alone, from facts already read: see the module's rules."""
    reason: str | None = None
    if recorded_pgid is not None and recorded_pgid != actual_pgid:
        reason = PGID_MISMATCH
    elif actual_pgid <= 1:
        reason = UNSAFE_GROUP
    elif actual_pgid != pid:
        reason = NOT_GROUP_LEADER
    elif actual_pgid in protected_pgids:
        reason = CALLER_GROUP
    return KillTarget(pid, start_time, actual_pgid, recorded_pgid, reason)


def resolve_target(pid: int, start_time: str | None, recorded_pgid: int | None) -> KillTarget:
    """Read the live process's group and decide; ProcessLookupError if it is gone.

    The start time is checked again after the group was read, so the group is known to
    belong to the recorded process and not to a process that reused its pid meanwhile.
    """
    actual = os.getpgid(pid)
    if not is_process_alive(pid, start_time):
        raise ProcessLookupError(pid)
    return choose_target(pid, start_time, recorded_pgid, actual, protected_groups())


def never_signalled(pid: int) -> bool:
    """pid 1, gz-ia itself, or one of the processes gz-ia descends from."""
    return pid == 1 or pid in ancestors()


def runs_one_of(pid: int, programs: frozenset[str]) -> bool:
    """True when one of the first arguments of ``pid`` names one of ``programs`` (by its
    file name: ``node /usr/bin/claude`` runs ``claude``)."""
    arguments = command_line(pid) or []
    return any(Path(arg).name in programs for arg in arguments[:COMMAND_WORDS])


def describe_command(pid: int) -> str:
    """The command line of ``pid``, cut short, for a message."""
    text = " ".join(command_line(pid) or [])
    return text if len(text) <= COMMAND_SHOWN else text[: COMMAND_SHOWN - 1] + "…"


def protected_groups() -> frozenset[int]:
    """gz-ia's own process group and its parent's: never signalled as a whole."""
    groups = {os.getpgrp()}
    with contextlib.suppress(OSError):
        groups.add(os.getpgid(os.getppid()))
    return frozenset(groups)


def send_first_signal(target: KillTarget, signum: int = signal.SIGTERM) -> bool:
    """``signum`` then SIGCONT (a stopped agent must run to act on it); False when the
    target is already gone. Other errors (EPERM) are raised."""
    if target.whole_group:
        if not signal_group(target.pgid, signum):
            return False
        signal_group(target.pgid, signal.SIGCONT)
        return True
    try:
        os.kill(target.pid, signum)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(target.pid, signal.SIGCONT)
    return True


def finish_kill(target: KillTarget, grace_s: float, first_signal: int = signal.SIGTERM) -> int:
    """After :func:`send_first_signal`: wait up to the grace, then SIGKILL what is left.

    Returns the last signal sent: ``first_signal`` when the target was gone within the
    grace, else SIGKILL.
    """
    if _wait_gone(target, time.monotonic() + grace_s):
        return first_signal
    if target.whole_group:
        signal_group(target.pgid, signal.SIGKILL)
    elif is_process_alive(target.pid, target.start_time):
        with contextlib.suppress(ProcessLookupError):
            os.kill(target.pid, signal.SIGKILL)
    _wait_gone(target, time.monotonic() + SIGKILL_WAIT_S)
    return signal.SIGKILL


def _wait_gone(target: KillTarget, deadline: float) -> bool:
    if target.whole_group:
        return wait_group_gone(target.pgid, deadline)
    while is_process_alive(target.pid, target.start_time):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        time.sleep(min(POLL_INTERVAL_S, remaining))
    return True
