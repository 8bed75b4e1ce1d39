"""``session kill`` racing the agent's own exit in a background run answers the truth.

The holder owns the run (``owner_pid`` is the holder, not the command that started it):
while it lives, kill and reconcile wait for its final write instead of calling the run
``lost``.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.contract import ConflictError
from gzia.sessions.kill import kill_session
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.supervisor.procinfo import process_start_time
from tests.background.conftest import holder_pid, start_background, stored, wait_final, wait_until
from tests.conftest import Result
from tests.run.conftest import GzProcess
from tests.shared_fixtures import trials
from tests.supervisor.fakes import pid_running, wait_for_note

EXITS_ON_GO = """
note("ready", 1)
go = os.path.join(os.environ["FAKE_NOTES"], "go")
while not os.path.exists(go):
    time.sleep(0.005)
"""


def _zombie(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and not pid_running(pid)


def test_kill_while_the_stopped_holder_has_not_reaped_the_agent_answers_the_final_record(
    gz: Callable[..., Result], gz_start: GzProcess, repo: Path,
    agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("quitter", EXITS_ON_GO)
    data = start_background(gz, repo, "quitter")
    assert (data["owner_pid"], data["owner_start_time"]) == (
        holder_pid(data), process_start_time(holder_pid(data)))
    wait_for_note(notes, "ready")
    os.kill(holder_pid(data), signal.SIGSTOP)
    try:
        (notes / "go").touch()
        wait_until(lambda: _zombie(data["pid"]), what="the agent to exit")
        killer = gz_start("--json", "session", "kill", data["id"], cwd=repo)
        time.sleep(0.5)
    finally:
        os.kill(holder_pid(data), signal.SIGCONT)
    out, _ = killer.communicate(timeout=60)
    final = wait_final(repo, data["id"])
    assert (final["status"], final["exit_code"]) == ("completed", 0)
    result = Result(killer.returncode, out, "")
    assert result.exit_code == 1, result
    error = result.json["errors"][0]
    assert (error["code"], error["message"]) == (
        "CONFLICT", f"session '{data['id']}' is not running (current status: completed)")
    assert result.json["data"] == stored(repo, data["id"])


def test_natural_kill_exit_races_never_answer_lost(
    gz: Callable[..., Result], gz_start: GzProcess, repo: Path,
    agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("quitter", EXITS_ON_GO)
    rng = random.Random()  # noqa: S311 - kill delays, not secrets
    for _ in range(trials(6, 40)):
        (notes / "go").unlink(missing_ok=True)
        data = start_background(gz, repo, "quitter")
        wait_for_note(notes, "ready")
        killer = gz_start("--json", "session", "kill", data["id"], cwd=repo)
        time.sleep(rng.uniform(0.1, 0.5))  # around the time the kill reaches the holder
        (notes / "go").touch()
        out, _ = killer.communicate(timeout=60)
        result = Result(killer.returncode, out, "")
        final = wait_final(repo, data["id"])
        assert result.json["data"] == final, result
        if result.exit_code == 0:
            assert final["status"] == "killed"
        else:
            assert result.json["errors"][0]["code"] == "CONFLICT", result
            assert final["status"] == "completed"
        holder = holder_pid(data)
        wait_until(lambda: not pid_running(holder), what="the holder to exit")  # noqa: B023


def test_kill_by_the_group_waits_for_the_stopped_holder_instead_of_calling_the_run_lost(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    """The path ``session kill`` takes when the holder does not answer in time."""
    agent("quitter", EXITS_ON_GO)
    data = start_background(gz, repo, "quitter")
    wait_for_note(notes, "ready")
    store = SessionStore(find_project(repo))
    os.kill(holder_pid(data), signal.SIGSTOP)
    try:
        (notes / "go").touch()
        wait_until(lambda: _zombie(data["pid"]), what="the agent to exit")
        timer = threading.Timer(0.5, os.kill, (holder_pid(data), signal.SIGCONT))
        timer.start()
        with pytest.raises(ConflictError) as raised:
            kill_session(store, data["id"], 0.1)
    finally:
        os.kill(holder_pid(data), signal.SIGCONT)
    assert raised.value.params["status"] == "completed"
    assert raised.value.data == stored(repo, data["id"])
    assert stored(repo, data["id"])["status"] == "completed"
