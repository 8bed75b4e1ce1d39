from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from gzia.supervisor.treekill import group_alive, group_members, kill_process_group
from tests.supervisor.fakes import (
    COOPERATIVE,
    STUBBORN_WITH_GRANDCHILD,
    noted_pids,
    pid_running,
    wait_for_note,
    write_agent,
)


def start(tmp_path: Path, notes: Path, body: str) -> subprocess.Popen[bytes]:
    agent = write_agent(tmp_path / "agent", body)
    child = subprocess.Popen([str(agent)], env={**os.environ, "FAKE_NOTES": str(notes)},
                             process_group=0)
    wait_for_note(notes, "ready")
    return child


def test_sigterm_ignoring_agent_and_grandchild_are_all_killed(tmp_path: Path, notes: Path):
    child = start(tmp_path, notes, STUBBORN_WITH_GRANDCHILD)
    wait_for_note(notes, "grandchild.pid")
    assert sorted(group_members(child.pid)) == sorted(noted_pids(notes))

    assert kill_process_group(child.pid, 0.1) == signal.SIGKILL

    assert child.wait(5) == -signal.SIGKILL
    assert not group_alive(child.pid)
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_cooperative_agent_ends_with_sigterm_within_the_grace(tmp_path: Path, notes: Path):
    child = start(tmp_path, notes, COOPERATIVE)

    assert kill_process_group(child.pid, 2.0) == signal.SIGTERM

    assert child.wait(5) == -signal.SIGTERM
    assert not group_alive(child.pid)


def test_a_group_that_is_gone_gets_no_signal(tmp_path: Path, notes: Path):
    child = start(tmp_path, notes, 'note("ready", 1)\n')
    child.wait(5)

    assert kill_process_group(child.pid, 0.1) is None


CLEANS_UP_ON_SIGTERM = """
signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
note("ready", 1)
while True:
    time.sleep(1)
"""


def test_a_stopped_group_is_continued_so_it_can_end_on_sigterm(tmp_path: Path, notes: Path):
    """Ctrl+Z'd (or SIGSTOPped) agents get SIGCONT after SIGTERM, as a shell's kill does."""
    child = start(tmp_path, notes, CLEANS_UP_ON_SIGTERM)
    os.killpg(child.pid, signal.SIGSTOP)

    assert kill_process_group(child.pid, 1.0, reap=child.poll) == signal.SIGTERM

    assert child.wait(5) == 0
