"""The kernel detector on real PTYs: a program blocked reading its terminal is BLOCKED;
one that computes, sleeps in a timer, or has no terminal is WORKING."""

from __future__ import annotations

import os
import pty
import shutil
import sys
import time
from collections.abc import Iterator

import pytest

from gzia.supervisor.activity import Activity, TerminalProbe


@pytest.fixture
def on_a_pty() -> Iterator[list[int]]:
    started: list[int] = []
    yield started
    for pid in started:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


def spawn(argv: list[str], started: list[int]) -> tuple[int, int]:
    pid, master = pty.fork()
    if pid == 0:  # the child: the PTY is its controlling terminal
        os.execvp(argv[0], argv)  # noqa: S606 - an argv, no shell
    started.append(pid)
    os.set_blocking(master, False)
    return pid, master


def verdicts(pid: int, master: int, seconds: float, *, output_seen: bool = True,
             probe: TerminalProbe | None = None) -> list[Activity]:
    """What the probe says, sampling as the run's loop does, for ``seconds``."""
    probe = probe if probe is not None else TerminalProbe()
    seen: list[Activity] = []
    began = last_output = time.monotonic()
    while time.monotonic() - began < seconds:
        try:
            if os.read(master, 4096):
                last_output = time.monotonic()
        except OSError:
            pass
        now = time.monotonic()
        changed = probe.observe(pid, last_output if output_seen else None, now)
        if changed is not None:
            seen.append(changed)
        time.sleep(0.05)
    return seen


PYTHON_READS = [sys.executable, "-c", "import sys; print('?', flush=True); sys.stdin.readline()"]
NODE_WAITS = ["node", "-e", "process.stdin.on('data', () => {})"]


@pytest.mark.parametrize("output_seen", [True, False])
def test_a_program_reading_its_terminal_is_blocked(on_a_pty: list[int], output_seen: bool):
    assert verdicts(*spawn(PYTHON_READS, on_a_pty), 1.5, output_seen=output_seen) == [
        Activity.WORKING, Activity.BLOCKED] if output_seen else [Activity.BLOCKED]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_an_event_loop_waiting_for_its_terminal_is_blocked(on_a_pty: list[int]):
    assert verdicts(*spawn(NODE_WAITS, on_a_pty), 2.0) == [Activity.WORKING, Activity.BLOCKED]


@pytest.mark.parametrize("program", [
    "while True: pass",  # computing
    "import time; time.sleep(30)",  # asleep in a timer, not waiting for the person
])
def test_a_program_that_computes_or_sleeps_is_working(on_a_pty: list[int], program: str):
    argv = [sys.executable, "-c", program]
    assert verdicts(*spawn(argv, on_a_pty), 1.5) == [Activity.WORKING]


def test_input_makes_it_work_again(on_a_pty: list[int]):
    pid, master = spawn([sys.executable, "-c", "import sys\nwhile True: sys.stdin.readline()"],
                        on_a_pty)
    probe = TerminalProbe()
    assert verdicts(pid, master, 1.2, probe=probe) == [Activity.WORKING, Activity.BLOCKED]
    os.write(master, b"hello\n")  # echoed: output
    assert verdicts(pid, master, 1.2, probe=probe) == [Activity.WORKING, Activity.BLOCKED]


def test_without_a_terminal_it_is_working():
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE, start_new_session=True)
    try:
        probe = TerminalProbe()
        assert probe.observe(child.pid, None, time.monotonic()) is Activity.WORKING
        time.sleep(0.6)
        assert probe.observe(child.pid, None, time.monotonic()) is None
    finally:
        child.kill()
        child.wait()
