"""Running agents: one owner for every run (process groups, PTYs, signals, tree kill).

Public entry points: :func:`run_supervised` with a :class:`Command`, and
:func:`kill_process_group` for stopping a group this process did not start.
"""

from __future__ import annotations

from gzia.supervisor.command import Command, make_command
from gzia.supervisor.run import RunOutcome, Started, run_supervised
from gzia.supervisor.treekill import group_alive, kill_process_group
from gzia.supervisor.watchdog import DEFAULT_KILL_GRACE_MS, DEFAULT_WATCHDOG, Watchdog

__all__ = [
    "DEFAULT_KILL_GRACE_MS",
    "DEFAULT_WATCHDOG",
    "Command",
    "RunOutcome",
    "Started",
    "Watchdog",
    "group_alive",
    "kill_process_group",
    "make_command",
    "run_supervised",
]
