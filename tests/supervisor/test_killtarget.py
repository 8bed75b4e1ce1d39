"""What a kill signals: the decision from the live process's facts, and the process-only kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.supervisor.killtarget import (
    CALLER_GROUP,
    NOT_GROUP_LEADER,
    PGID_MISMATCH,
    UNSAFE_GROUP,
    KillTarget,
    choose_target,
    finish_kill,
    never_signalled,
    protected_groups,
    resolve_target,
    runs_one_of,
    send_first_signal,
)
from gzia.supervisor.procinfo import process_start_time
from gzia.supervisor.treekill import group_members
from tests.supervisor.fakes import pid_running

AGENT, CALLER = 4242, 777


@pytest.mark.parametrize(
    ("recorded", "actual", "reason"),
    [
        (AGENT, AGENT, None),  # written by gz-ia: the agent leads the group it recorded
        (None, AGENT, None),  # original record, agent leads its own group
        (None, 900, NOT_GROUP_LEADER),  # original record, agent inside someone's group
        (900, 900, NOT_GROUP_LEADER),  # names the agent's group, but the agent does not lead it
        (900, AGENT, PGID_MISMATCH),  # names an unrelated group
        (1, AGENT, PGID_MISMATCH),
        (-7, AGENT, PGID_MISMATCH),
        (0, AGENT, PGID_MISMATCH),
        (1, 1, UNSAFE_GROUP),  # even when the record agrees: never group 1
        (None, 1, UNSAFE_GROUP),
        (None, 0, UNSAFE_GROUP),
        (CALLER, CALLER, NOT_GROUP_LEADER),  # the caller's group is never the agent's
    ],
    ids=str,
)
def test_the_group_is_signalled_only_when_the_live_process_proves_it(
    recorded: int | None, actual: int, reason: str | None
):
    target = choose_target(AGENT, "123", recorded, actual, frozenset({CALLER}))

    assert target == KillTarget(AGENT, "123", actual, recorded, reason)
    assert target.whole_group is (reason is None)


@pytest.mark.parametrize("recorded", [None, CALLER])
def test_an_agent_leading_the_callers_own_group_gets_only_its_process(recorded: int | None):
    target = choose_target(CALLER, None, recorded, CALLER, frozenset({CALLER}))

    assert (target.whole_group, target.reason) == (False, CALLER_GROUP)
    assert target.to_json() == {"signalled": "process", "pid": CALLER, "pgid": CALLER,
                                "recorded_pgid": recorded, "reason": "caller_group"}


def test_gz_ias_own_group_and_its_parents_are_protected():
    assert protected_groups() == {os.getpgrp(), os.getpgid(os.getppid())}


STUBBORN_PARENT = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = os.fork()
if child == 0:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)
print(child, flush=True)
while True:
    time.sleep(1)
"""


@pytest.fixture
def stubborn_parent() -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A SIGTERM-ignoring process leading its own group, with a child in that group."""
    parent = subprocess.Popen([sys.executable, "-c", STUBBORN_PARENT], process_group=0,
                              stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    yield parent, child
    for pid in (child, parent.pid):
        if pid_running(pid):
            os.kill(pid, signal.SIGKILL)
    parent.wait(5)


def test_resolve_reads_the_group_from_the_live_process(
    stubborn_parent: tuple[subprocess.Popen[str], int]
):
    parent, child = stubborn_parent
    start = process_start_time(child)

    target = resolve_target(child, start, None)

    assert target == KillTarget(child, start, parent.pid, None, NOT_GROUP_LEADER)
    with pytest.raises(ProcessLookupError):
        resolve_target(child, "1", None)  # not the recorded process (start time differs)


def test_a_process_only_kill_escalates_to_sigkill_and_spares_the_rest_of_the_group(
    stubborn_parent: tuple[subprocess.Popen[str], int]
):
    parent, child = stubborn_parent
    target = resolve_target(child, process_start_time(child), parent.pid)
    assert target.reason == NOT_GROUP_LEADER

    assert send_first_signal(target)
    assert finish_kill(target, 0.1) == signal.SIGKILL

    assert not pid_running(child)
    assert group_members(parent.pid) == [parent.pid]  # the leader was never signalled
    assert parent.poll() is None


def test_a_whole_group_kill_reaches_every_member(
    stubborn_parent: tuple[subprocess.Popen[str], int]
):
    parent, child = stubborn_parent
    target = resolve_target(parent.pid, process_start_time(parent.pid), parent.pid)
    assert target.whole_group

    assert send_first_signal(target)
    assert finish_kill(target, 0.1) == signal.SIGKILL

    assert parent.wait(5) == -signal.SIGKILL
    assert not pid_running(child)
    assert group_members(parent.pid) == []


def test_gz_ia_and_every_process_it_descends_from_are_never_signalled(tmp_path: Path):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert never_signalled(1) and never_signalled(os.getpid())
        assert never_signalled(os.getppid())
        assert not never_signalled(child.pid)
    finally:
        child.kill()
        child.wait(5)


def test_a_process_runs_a_program_when_one_of_its_first_arguments_names_it(tmp_path: Path):
    script = tmp_path / "claude"
    script.write_text(f"#!{sys.executable}\nimport sys, time\nprint(1, flush=True)\n"
                      "time.sleep(30)\n")
    script.chmod(0o755)
    child = subprocess.Popen([str(script), "--resume"], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        child.stdout.readline()
        assert runs_one_of(child.pid, frozenset({"claude"}))  # python /path/claude --resume
        assert not runs_one_of(child.pid, frozenset({"opencode"}))
        assert not runs_one_of(child.pid, frozenset())
    finally:
        child.kill()
        child.wait(5)
