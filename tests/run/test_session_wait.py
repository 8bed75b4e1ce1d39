"""session wait: real sessions (exec from another process), real waits, real signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import GzProcess
from tests.waiting import is_sleeping_in_a_timer, wait_for

Gz = Callable[..., Result]

WAITER = """
release = os.path.join(os.environ["FAKE_NOTES"], sys.argv[1])
while not os.path.exists(release):
    time.sleep(0.01)
sys.exit(int(sys.argv[2]))
"""


def sessions_dir(repo: Path) -> Path:
    return repo / ".harness" / "sessions"


def start_running(gz_start: GzProcess, repo: Path, name: str, code: int = 0
                  ) -> tuple[str, subprocess.Popen[str]]:
    """An exec session whose agent runs until note ``name`` exists, then exits ``code``."""
    before = set(sessions_dir(repo).glob("*.json")) if sessions_dir(repo).exists() else set()
    process = gz_start("exec", "--", "waiter", name, str(code), cwd=repo)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        new = set(sessions_dir(repo).glob("*.json")) - before if sessions_dir(repo).exists() \
            else set()
        for path in new:
            record = json.loads(path.read_text() or "{}")
            if record.get("status") == "running" and record.get("pid", 0) > 0:
                return record["id"], process
        time.sleep(0.02)
    raise AssertionError("the session never started")


def release(notes: Path, name: str) -> None:
    (notes / name).write_text("go")


def status_of(repo: Path, session_id: str) -> str:
    return str(json.loads((sessions_dir(repo) / f"{session_id}.json").read_text())["status"])


@pytest.fixture
def waiter(agent: Any) -> None:
    agent("waiter", WAITER)


def outcome(session_id: str, status: str, exit_code: int | None,
            end_reason: str | None) -> dict[str, Any]:
    return {"id": session_id, "status": status, "exit_code": exit_code,
            "end_reason": end_reason, "deleted": False}


@pytest.mark.usefixtures("waiter")
def test_wait_returns_0_when_every_session_completed(gz: Gz, gz_start: GzProcess, repo: Path,
                                                      notes: Path) -> None:
    first, p1 = start_running(gz_start, repo, "one")
    second, p2 = start_running(gz_start, repo, "two")
    waiting = gz_start("--json", "session", "wait", first, second[:6], cwd=repo)
    time.sleep(0.3)
    assert waiting.poll() is None  # still waiting
    release(notes, "one")
    release(notes, "two")
    out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == 0, err
    assert json.loads(out) == {"ok": True, "errors": [], "warnings": [], "data": {
        "all_succeeded": True, "timed_out": False,
        "sessions": [outcome(first, "completed", 0, "process_exit"),
                     outcome(second, "completed", 0, "process_exit")]}}
    p1.communicate(timeout=30)
    p2.communicate(timeout=30)


@pytest.mark.usefixtures("waiter")
def test_wait_exits_1_with_ok_true_when_one_failed(gz: Gz, gz_start: GzProcess, repo: Path,
                                                   notes: Path) -> None:
    good, p1 = start_running(gz_start, repo, "good")
    bad, p2 = start_running(gz_start, repo, "bad", code=3)
    release(notes, "good")
    release(notes, "bad")
    result = gz("--json", "session", "wait", good, bad, cwd=repo)
    assert result.exit_code == 1
    assert result.json == {"ok": True, "errors": [], "warnings": [], "data": {
        "all_succeeded": False, "timed_out": False,
        "sessions": [outcome(good, "completed", 0, "process_exit"),
                     outcome(bad, "failed", 3, "process_exit")]}}
    human = gz("session", "wait", good, bad, cwd=repo, env={"GZ_LANG": "es"})
    assert human == Result(1, (
        f"{good}  completada  código de salida: 0  motivo fin: fin del proceso\n"
        f"{bad}  fallida  código de salida: 3  motivo fin: fin del proceso\n"), "")
    p1.communicate(timeout=30)
    p2.communicate(timeout=30)


@pytest.mark.usefixtures("waiter")
@pytest.mark.parametrize(("env", "message"), [
    ({}, "timed out after 0.3 s waiting for sessions; 1 still running (left as they are)"),
    ({"GZ_LANG": "es"}, "tiempo agotado tras 0.3 s esperando a las sesiones; 1 siguen en "
                        "ejecución (no se tocan)"),
])
def test_timeout_is_retryable_and_leaves_the_session_running(  # noqa: PLR0917 - fixtures
        gz: Gz, gz_start: GzProcess, repo: Path, notes: Path, env: dict[str, str],
        message: str) -> None:
    session_id, process = start_running(gz_start, repo, "later")
    started = time.monotonic()
    result = gz("--json", "session", "wait", "--timeout", "0.3", session_id, cwd=repo, env=env)
    assert time.monotonic() - started >= 0.3
    assert result.exit_code == 1
    assert result.json == {"ok": False, "warnings": [], "data": {
        "all_succeeded": False, "timed_out": True,
        "sessions": [outcome(session_id, "running", None, None)]},
        "errors": [{"code": "TIMEOUT", "message": message, "retryable": True, "hint": None,
                    "details": {"timeout": 0.3, "running": [session_id]}}]}
    assert status_of(repo, session_id) == "running"
    release(notes, "later")
    process.communicate(timeout=30)


@pytest.mark.usefixtures("waiter")
def test_any_returns_when_the_first_session_ends(gz: Gz, gz_start: GzProcess, repo: Path,
                                                 notes: Path) -> None:
    slow, p1 = start_running(gz_start, repo, "slow")
    fast, p2 = start_running(gz_start, repo, "fast")
    release(notes, "fast")
    result = gz("--json", "session", "wait", "--any", slow, fast, cwd=repo)
    assert result.exit_code == 0
    assert result.json["data"] == {"all_succeeded": True, "timed_out": False, "sessions": [
        outcome(slow, "running", None, None), outcome(fast, "completed", 0, "process_exit")]}
    assert status_of(repo, slow) == "running"
    release(notes, "slow")
    p1.communicate(timeout=30)
    p2.communicate(timeout=30)


@pytest.mark.usefixtures("waiter")
def test_ctrl_c_exits_130_and_leaves_the_sessions_running(gz_start: GzProcess, repo: Path,
                                                         notes: Path) -> None:
    session_id, process = start_running(gz_start, repo, "never")
    for _ in range(3):  # repeated: the interrupt may land anywhere in the wait loop
        waiting = gz_start("session", "wait", session_id, cwd=repo)
        wait_for(lambda: is_sleeping_in_a_timer(waiting.pid), "session wait to wait")  # noqa: B023
        os.killpg(waiting.pid, signal.SIGINT)
        out, _ = waiting.communicate(timeout=10)
        assert (waiting.returncode, out) == (130, "")
        assert status_of(repo, session_id) == "running"
        assert process.poll() is None
    release(notes, "never")
    process.communicate(timeout=30)
    assert status_of(repo, session_id) == "completed"


def test_wait_on_ended_sessions_returns_at_once(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "sys.exit(0)\n")
    agent("broken", "sys.exit(2)\n")
    ok = gz("--json", "exec", "--", "done", cwd=repo).json["data"]["id"]
    failed = gz("--json", "exec", "--", "broken", cwd=repo).json["data"]["id"]
    assert gz("session", "wait", ok, cwd=repo).exit_code == 0
    result = gz("--json", "session", "wait", ok, failed, ok, cwd=repo)
    assert result.exit_code == 1
    assert result.json["data"]["sessions"] == [outcome(ok, "completed", 0, "process_exit"),
                                               outcome(failed, "failed", 2, "process_exit")]


def test_wait_on_an_unknown_or_invalid_id(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "sys.exit(0)\n")
    ok = gz("--json", "exec", "--", "done", cwd=repo).json["data"]["id"]
    missing = "0000000f" if ok != "0000000f" else "0000000e"
    assert gz("session", "wait", ok, missing, cwd=repo) == Result(
        1, "", f"Error: session '{missing}' not found\ngz-ia session list\n")
    assert gz("session", "wait", "../x", cwd=repo).exit_code == 2
    assert gz("session", "wait", "--timeout", "-1", ok, cwd=repo) == Result(
        2, "", "Error: invalid --timeout -1.0: expected 0 or more seconds\n")
