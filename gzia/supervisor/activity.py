"""Is the agent waiting for the person? The kernel's view of its terminal (Linux).

An agent whose foreground process group is blocked reading its terminal, with no output
and no CPU time for a short quiet period, is waiting for input (``BLOCKED``); anything
else is ``WORKING``. What it is blocked in comes from the kernel, not from silence:

* ``/proc/<pid>/stat`` of the agent: the terminal's foreground group (``tpgid``);
* ``/proc/<fg>/stat`` of that group's leader: its state (``S``) and CPU ticks;
* ``/proc/<fg>/syscall``: a ``read`` of a terminal, or a wait for input (``poll``,
  ``select``, ``epoll_wait``: event-loop agents); ``/proc/<fg>/wchan`` where the
  syscall file is not readable.

Cheap by design (bench/agent_state.py): nothing is read while output flows; a sample
every :data:`PERIOD_S` otherwise, and once blocked, one ``stat`` read every
:data:`BLOCKED_PERIOD_S` as long as the leader has used no CPU (it has not run, so it is
still blocked where it was).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

PERIOD_S = 0.2
"""How often the kernel is asked, while the agent is quiet."""
BLOCKED_PERIOD_S = 1.0
"""How often, once it is blocked: input shows as output (the terminal's echo, the
agent's answer) and ends the block without a read; this only catches silent work."""
QUIET_S = 0.4
"""How long the agent must be quiet (no output, no CPU) to count as blocked."""
BUSY_TICKS = 2
"""CPU ticks (of 10 ms, usually) between two samples that make a sleeping agent busy:
an event loop's timers use less."""

_READS = {"x86_64": frozenset({0, 19}), "aarch64": frozenset({63, 65})}
_INPUT_WAITS = {"x86_64": frozenset({7, 23, 232, 270, 271, 281, 441}),
                "aarch64": frozenset({22, 72, 73, 441})}
"""poll, select, epoll_wait, pselect6, ppoll, epoll_pwait, epoll_pwait2 (aarch64 has
only the p- forms)."""
_WAIT_CHANNELS = frozenset({"n_tty_read", "wait_woken", "do_select", "do_sys_poll",
                            "ep_poll", "do_epoll_wait", "poll_schedule_timeout"})


class Activity(StrEnum):
    WORKING = "working"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class _Sample:
    pid: int
    ticks: int
    blocked: bool


class TerminalProbe:
    """Samples one agent; :meth:`observe` returns the activity when it changes."""

    def __init__(self, period_s: float = PERIOD_S, quiet_s: float = QUIET_S) -> None:
        self.period_s, self.quiet_s = period_s, quiet_s
        self.activity: Activity | None = None
        self._next = 0.0
        self._last: _Sample | None = None
        self._blocked_since: float | None = None
        arch = os.uname().machine
        self._reads = _READS.get(arch, frozenset())
        self._waits = _INPUT_WAITS.get(arch, frozenset())

    def observe(self, pid: int, last_output: float | None, now: float) -> Activity | None:
        """``last_output``: monotonic time of the agent's last output (``None`` when its
        output is not seen: a terminal handed to it). The new activity, else ``None``."""
        if last_output is not None and now - last_output < self.quiet_s:
            self._last, self._blocked_since = None, None
            return self._become(Activity.WORKING)
        if now < self._next:
            return None
        blocked_now = self.activity is Activity.BLOCKED
        self._next = now + (max(self.period_s, BLOCKED_PERIOD_S) if blocked_now
                            else self.period_s)
        blocked = self._blocked_now(pid)
        if not blocked:
            self._blocked_since = None
            return self._become(Activity.WORKING)
        if self._blocked_since is None:
            self._blocked_since = now
        quiet_since = self._blocked_since if last_output is None else max(
            last_output, self._blocked_since - self.period_s)
        if now - quiet_since >= self.quiet_s:
            return self._become(Activity.BLOCKED)
        return None

    def _become(self, activity: Activity) -> Activity | None:
        if activity is self.activity:
            return None
        self.activity = activity
        return activity

    def _blocked_now(self, pid: int) -> bool:
        """One sample: the foreground leader sleeps in a terminal read or an input wait,
        and has not been busy since the last sample."""
        fields = _stat_fields(pid)
        if fields is None or int(fields[4]) == 0 or int(fields[5]) <= 0:
            return False  # gone, or no terminal: nothing to wait on
        fg = int(fields[5])
        if fg != pid:
            fields = _stat_fields(fg)
            if fields is None:
                return False
        ticks = int(fields[11]) + int(fields[12])
        last = self._last if self._last is not None and self._last.pid == fg else None
        if fields[0] != "S" or (last is not None and ticks - last.ticks > BUSY_TICKS):
            blocked = False
        elif last is not None and last.blocked and last.ticks == ticks:
            blocked = True  # it has not run since it was seen waiting: no need to look again
        else:
            blocked = waits_for_input(fg, self._reads, self._waits)
        self._last = _Sample(fg, ticks, blocked)
        return blocked


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state first)."""
    raw = _read_proc(pid, "stat")
    if raw is None:
        return None
    return raw[raw.rfind(b")") + 2:].decode("ascii", "replace").split()


def waits_for_input(pid: int, reads: frozenset[int], waits: frozenset[int]) -> bool:
    """Whether ``pid`` sleeps in a read of a terminal or a wait for input."""
    raw = _read_proc(pid, "syscall")
    if raw is None:
        return _wait_channel(pid) in _WAIT_CHANNELS
    words = raw.split()
    if not words or not words[0].isdigit():
        return False  # "running", or "-1" (not in a syscall)
    number = int(words[0])
    if number in waits:
        return True
    return number in reads and len(words) > 1 and _is_terminal(pid, int(words[1], 16))


def _is_terminal(pid: int, fd: int) -> bool:
    try:
        target = str(Path(f"/proc/{pid}/fd/{fd}").readlink())
    except OSError:
        return False
    return target.startswith(("/dev/pts/", "/dev/tty", "/dev/console"))


def _wait_channel(pid: int) -> str:
    raw = _read_proc(pid, "wchan")
    return raw.decode("ascii", "replace") if raw is not None else ""


def _read_proc(pid: int, name: str) -> bytes | None:
    """One small ``/proc/<pid>/`` file in one read (os-level: this runs for every
    quiet session several times a second)."""
    try:
        fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


class ActivityWatch:
    """A probe and what to do when its verdict changes, driven by the run's loop."""

    def __init__(self, on_change: Callable[[Activity], None],
                 probe: TerminalProbe | None = None) -> None:
        self.on_change = on_change
        self.probe = probe if probe is not None else TerminalProbe()

    def tick(self, pid: int, last_output: float | None, now: float) -> None:
        changed = self.probe.observe(pid, last_output, now)
        if changed is not None:
            with contextlib.suppress(Exception):  # a report that fails never ends the run
                self.on_change(changed)
