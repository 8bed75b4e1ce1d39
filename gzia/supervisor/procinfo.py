"""What the system says about a process: is it alive, and since when.

A pid alone is not an identity (pids are reused), so records keep the process start
time next to the pid; a process counts as alive only if it exists, is not a zombie and
still has the recorded start time. Linux reads ``/proc/<pid>/stat`` (field 22, start
time in clock ticks since boot); other systems ask ``ps`` through ``gzia.proc``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from gzia import proc
from gzia.contract import GzError

_DEAD_STATES = frozenset({"Z", "X", "x"})
MAX_PID = 2**31 - 1
"""pid_t is a signed 32-bit integer: anything larger is no process (and makes os.kill fail)."""


@dataclass(frozen=True)
class ProcessState:
    start_time: str
    zombie: bool
    parent: int = 0


def process_start_time(pid: int) -> str | None:
    """The start time of ``pid`` as an opaque string, or ``None`` if there is no such process."""
    state = _read_state(pid)
    return state.start_time if state is not None else None


def is_process_alive(pid: int, start_time: str | None = None) -> bool:
    """True when ``pid`` runs, is not a zombie, and (if given) started at ``start_time``.

    A number no process can have (a hand-edited or corrupt record) is simply not alive.
    """
    if not 0 < pid <= MAX_PID or not _exists(pid):
        return False
    state = _read_state(pid)
    if state is None:
        # It answered signal 0 but its details are unreadable: trust signal 0,
        # unless we needed the start time to tell it from a reused pid.
        return start_time is None
    if state.zombie:
        return False
    return start_time is None or state.start_time == start_time


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, it belongs to someone else
    return True


def _read_state(pid: int) -> ProcessState | None:
    if pid <= 0:
        return None
    if sys.platform.startswith("linux"):
        return _read_proc_stat(pid)
    return _read_with_ps(pid)


def _read_proc_stat(pid: int) -> ProcessState | None:
    try:
        with Path(f"/proc/{pid}/stat").open("rb") as stat:
            raw = stat.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    after_name = raw[raw.rfind(")") + 2 :].split()
    if len(after_name) < 20:
        return None
    return ProcessState(start_time=after_name[19], zombie=after_name[0] in _DEAD_STATES,
                        parent=int(after_name[1]) if after_name[1].isdigit() else 0)


def _read_with_ps(pid: int) -> ProcessState | None:
    try:
        done = proc.run(["ps", "-o", "stat=,ppid=,lstart=", "-p", str(pid)], timeout=5.0)
    except GzError:
        return None
    fields = done.stdout.split()
    if not done.ok or len(fields) < 3:
        return None
    stat, parent, started = fields[0], fields[1], fields[2:]
    return ProcessState(start_time=" ".join(started), zombie="Z" in stat,
                        parent=int(parent) if parent.isdigit() else 0)


def ancestors(pid: int | None = None) -> frozenset[int]:
    """The parent chain of ``pid`` (default: this process), itself included, up to 1."""
    current = os.getpid() if pid is None else pid
    chain: set[int] = set()
    while current > 0 and current not in chain:
        chain.add(current)
        state = _read_state(current)
        current = state.parent if state is not None else 0
    return frozenset(chain)


def command_line(pid: int) -> list[str] | None:
    """The arguments ``pid`` runs with (``/proc/<pid>/cmdline``, else ``ps``); None if
    unreadable."""
    if sys.platform.startswith("linux"):
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        return [arg.decode("utf-8", "replace") for arg in raw.split(b"\0") if arg]

    try:
        done = proc.run(["ps", "-o", "args=", "-p", str(pid)], timeout=5.0)
    except GzError:
        return None
    return done.stdout.split() if done.ok and done.stdout.strip() else None
