"""Liveness of a process group and the tree kill: SIGTERM, grace, SIGKILL, all by group.

Every agent runs as the leader of its own process group, and everything it forks stays in
that group unless it deliberately moves away (``setsid``/``setpgid``): such a process is out
of reach of a group kill, which docs/supervisor.md states as a known limit.

A group counts as alive while at least one member is not a zombie. On Linux the members
are read from ``/proc``; elsewhere ``killpg(pgid, 0)`` is the only probe, so zombies of a
parent that has not reaped them yet count as alive (callers that own the leader pass
``reap`` to collect it while waiting).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from gzia.supervisor.watchdog import POLL_INTERVAL_S

_PROC = Path("/proc")


def group_exists(pgid: int) -> bool:
    """Signal-0 probe: does any process (zombies included) still carry this group id?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_members(pgid: int) -> list[int]:
    """Pids of the group's members that are not zombies (Linux ``/proc``)."""
    members: list[int] = []
    for entry in os.scandir(_PROC):
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(entry.name)
        if fields is not None and fields[2] == str(pgid) and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def _stat_fields(pid: str) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, ..."""
    try:
        raw = (_PROC / pid / "stat").read_bytes()
    except OSError:
        return None
    return raw[raw.rfind(b")") + 2 :].decode("ascii", "replace").split()


def group_alive(pgid: int) -> bool:
    if not group_exists(pgid):
        return False
    if not _PROC.is_dir():
        return True
    return bool(group_members(pgid))


def _still_member(pid: int, pgid: int) -> bool:
    fields = _stat_fields(str(pid))
    return fields is not None and fields[0] != "Z" and fields[2] == str(pgid)


def signal_group(pgid: int, signum: int) -> bool:
    """Send ``signum`` to the group; False when the group no longer exists."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    return True


def wait_group_gone(
    pgid: int, deadline: float, reap: Callable[[], object] | None = None
) -> bool:
    """Poll until the group is gone or ``deadline`` (monotonic) passes; True when gone.

    Between full scans of ``/proc`` only the members already seen are checked (cheap);
    when they have all gone, a full scan confirms that no new member appeared.
    """
    members: list[int] = []
    while True:
        if reap is not None:
            reap()
        members = [pid for pid in members if _still_member(pid, pgid)]
        if not members:
            if not group_exists(pgid):
                return True
            if _PROC.is_dir():
                members = group_members(pgid)
                if not members:
                    return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        time.sleep(min(POLL_INTERVAL_S, remaining))


def kill_process_group(
    pgid: int,
    grace_s: float,
    *,
    first_signal: int = signal.SIGTERM,
    reap: Callable[[], object] | None = None,
) -> int | None:
    """Stop the whole group: ``first_signal`` (then SIGCONT, so stopped members act on
    it), up to ``grace_s``, then SIGKILL.

    Returns the last signal sent (``first_signal`` or SIGKILL), or None when the group was
    already gone before anything was sent.
    """
    if not group_alive(pgid) or not signal_group(pgid, first_signal):
        return None
    signal_group(pgid, signal.SIGCONT)  # a stopped member (Ctrl+Z) must run to see it
    if wait_group_gone(pgid, time.monotonic() + grace_s, reap):
        return first_signal
    signal_group(pgid, signal.SIGKILL)
    wait_group_gone(pgid, time.monotonic() + 5.0, reap)
    return signal.SIGKILL
