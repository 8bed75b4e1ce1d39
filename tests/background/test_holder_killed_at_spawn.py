"""A holder SIGKILLed right around the agent's spawn leaves no agent that nothing names.

The agent is held before exec until its pid, start time and group are in the record
(gzia.supervisor.startgate): afterwards either it never ran, or the record names it and
``session kill`` stops its whole group.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gzia.contract import LockedError
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.supervisor.procinfo import is_process_alive, process_start_time
from tests.background.conftest import records, wait_until
from tests.background.test_kill import IGNORES_HUP
from tests.conftest import Result
from tests.run.conftest import GzProcess
from tests.shared_fixtures import trials
from tests.supervisor.fakes import noted_pids, pid_running


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def _holder_of(starter: int) -> int | None:
    for child in _children(starter):
        with contextlib.suppress(OSError):
            if b"__holder__" in Path(f"/proc/{child}/cmdline").read_bytes():
                return child
    return None


def _kill_holder_at_spawn(repo: Path, starter: int, notes: Path,
                          wait_s: float) -> tuple[int, str | None] | None:
    """SIGKILL the holder while its first child is new: the record's lock is taken at once
    (the holder's write of the agent's identity waits for it) and held until the agent
    says it runs, or ``wait_s`` passed. The child, or None if none came."""
    holder = wait_until(lambda: _holder_of(starter), 20, "the holder to start")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and pid_running(holder):
        children = _children(holder)
        if children:
            child = children[0], process_start_time(children[0])
            with _record_lock(repo):
                with contextlib.suppress(AssertionError):
                    wait_until((notes / "ready").exists, wait_s)
                os.kill(holder, signal.SIGKILL)
            return child
    return None


@contextlib.contextmanager
def _record_lock(repo: Path) -> Iterator[None]:
    """The session's record lock, when it can be had within 50 ms (else nothing held)."""
    store = SessionStore(find_project(repo))
    [record] = records(repo)
    try:
        with store.lock(record["id"], timeout=0.05):
            yield
    except LockedError:
        yield


def _stop(pid: int, start: str | None) -> None:
    """SIGKILL the group of a process this test started, only if it is still that one."""
    if start is not None and is_process_alive(pid, start):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)


def test_holder_killed_right_after_the_spawn_never_leaves_an_unnamed_agent(
    gz: Callable[..., Result], gz_start: GzProcess, repo: Path,
    agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("survivor", IGNORES_HUP)
    rng = random.Random()  # noqa: S311 - kill delays, not secrets
    for _ in range(trials(6, 40)):
        for note in notes.iterdir():
            note.unlink()
        starter = gz_start("--json", "exec", "-b", "--", "survivor", cwd=repo)
        held = _kill_holder_at_spawn(repo, starter.pid, notes, rng.uniform(0, 1.0))
        starter.communicate(timeout=60)
        assert held is not None, "the holder never spawned"
        time.sleep(0.3)  # an agent that got to run has noted its pid by now
        [record] = records(repo)
        ran = (notes / "agent.pid").exists()
        try:
            if ran and pid_running(held[0]):
                assert (record["status"], record["pid"], record["pgid"],
                        record["pid_start_time"]) == ("running", held[0], held[0], held[1])
                killed = gz("--json", "session", "kill", record["id"], cwd=repo)
                assert killed.exit_code == 0, killed
                assert killed.json["data"]["status"] == "killed"
            else:
                assert record["status"] != "running" or record["pid"] in (0, held[0])
        finally:
            survivors = [pid for pid in (held[0], *noted_pids(notes)) if pid_running(pid)]
            _stop(*held)
            for pid in noted_pids(notes):  # what the agent itself started and named
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        assert not survivors, f"an agent outlived its holder: {survivors}"
        for old in (repo / ".harness" / "sessions").glob("*.json"):
            old.unlink()
