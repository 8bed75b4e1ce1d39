"""Fake agents for the supervisor and session tests: small executable Python scripts.

A script is the prelude below plus a body. Agents note facts (their pid, a grandchild's
pid, whether they have a terminal) as files in ``$FAKE_NOTES`` so tests can see them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

PRELUDE = """#!{python}
import os, signal, subprocess, sys, time

def note(name, value):
    path = os.path.join(os.environ["FAKE_NOTES"], name)
    with open(path + ".tmp", "w") as handle:
        handle.write(str(value))
    os.replace(path + ".tmp", path)

def ignore_term():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

def fork_grandchild(name="grandchild", ignore=True):
    pid = os.fork()
    if pid == 0:
        if ignore:
            ignore_term()
        note(name + ".pid", os.getpid())
        while True:
            time.sleep(1)
    return pid

note("agent.pid", os.getpid())
"""


# Agent bodies shared by the supervisor and session tests.
STUBBORN_WITH_GRANDCHILD = """
ignore_term()
fork_grandchild()
note("ready", 1)
while True:
    time.sleep(1)
"""

COOPERATIVE = """
note("ready", 1)
while True:
    time.sleep(1)
"""


def write_agent(path: Path, body: str) -> Path:
    path.write_text(PRELUDE.format(python=sys.executable) + body, encoding="utf-8")
    path.chmod(0o755)
    return path


def wait_for_note(notes: Path, name: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    target = notes / name
    while time.monotonic() < deadline:
        if target.exists():
            return target.read_text(encoding="utf-8")
        time.sleep(0.01)
    raise AssertionError(f"the fake agent never wrote {name}")


def pid_running(pid: int) -> bool:
    """True when ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def noted_pids(notes: Path) -> list[int]:
    pids = []
    for note in notes.glob("*.pid"):
        with contextlib.suppress(ValueError):
            pids.append(int(note.read_text(encoding="ascii")))
    return pids


def kill_leftovers(notes: Path) -> list[int]:
    """Teardown: SIGKILL any noted process still running; returns those it had to kill."""
    survivors = [pid for pid in noted_pids(notes) if pid_running(pid)]
    for pid in survivors:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return survivors
