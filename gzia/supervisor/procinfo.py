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

_DEAD_STATES = frozenset({"Z", "X", "x"})
MAX_PID = 2**31 - 1
"""pid_t is a signed 32-bit integer: anything larger is no process (and makes os.kill fail)."""


@dataclass(frozen=True)
class ProcessState:
    start_time: str
    zombie: bool


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
    return ProcessState(start_time=after_name[19], zombie=after_name[0] in _DEAD_STATES)


def _read_with_ps(pid: int) -> ProcessState | None:
    from gzia import proc
    from gzia.contract import GzError

    try:
        done = proc.run(["ps", "-o", "stat=,lstart=", "-p", str(pid)], timeout=5.0)
    except GzError:
        return None
    text = done.stdout.strip()
    if not done.ok or not text:
        return None
    stat, _, started = text.partition(" ")
    return ProcessState(start_time=" ".join(started.split()), zombie="Z" in stat)
