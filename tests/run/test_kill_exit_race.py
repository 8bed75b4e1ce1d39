"""The record's owner (the gz-ia running the agent) alone decides the final status while it
lives: the moment between the agent's exit and the owner's final write never reads as
``lost``, a kill in it never claims to have marked anything, and ``delete --force`` in it
deletes.

The moment is held open on purpose: the owner is stopped (SIGSTOP) once its agent has
exited, so the agent stays an unreaped zombie until the test lets the owner go on.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import ConflictError
from gzia.sessions.kill import kill_session
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import OWNER_WAIT_S
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.procinfo import process_start_time
from tests.conftest import Result
from tests.run.conftest import GzProcess, stored_record
from tests.run.test_kill_and_signals import finish, only_session_id, wait_for_pid_recorded
from tests.shared_fixtures import trials
from tests.supervisor.fakes import wait_for_note

Gz = Callable[..., Result]
WAITS_FOR_GO = """
note("ready", 1)
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "go")):
    time.sleep(0.01)
sys.exit(0)
"""
RACE_TRIALS = trials(12, 60)


def _is_zombie(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2] == "Z"


@pytest.fixture
def held_owner(gz_start: GzProcess, agent: Any, repo: Path,
               notes: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A gz-ia exec whose agent has exited 0 while gz-ia is stopped: (gz-ia, session id)."""
    agent("waits-for-go", WAITS_FOR_GO)
    owner = gz_start("--json", "exec", "--", "waits-for-go", cwd=repo)
    wait_for_note(notes, "ready")
    session_id = only_session_id(repo)
    agent_pid = wait_for_pid_recorded(repo, session_id)["pid"]
    os.kill(owner.pid, signal.SIGSTOP)
    try:
        (notes / "go").write_text("")
        deadline = time.monotonic() + 10
        while not _is_zombie(agent_pid):
            assert time.monotonic() < deadline, "the agent never exited"
            time.sleep(0.01)
        yield owner, session_id
    finally:
        if owner.poll() is None:
            os.kill(owner.pid, signal.SIGCONT)
            finish(owner)


def _resume_later(owner: subprocess.Popen[str], delay: float = 0.5) -> threading.Timer:
    timer = threading.Timer(delay, os.kill, (owner.pid, signal.SIGCONT))
    timer.start()
    return timer


def test_readers_see_running_while_the_owner_lives(gz: Gz, repo: Path, held_owner: Any):
    owner, session_id = held_owner
    shown = gz("--json", "session", "show", session_id, cwd=repo)
    listed = gz("--json", "session", "list", cwd=repo)
    assert shown.json["data"]["status"] == "running"
    assert [s["status"] for s in listed.json["data"]["sessions"]] == ["running"]
    assert stored_record(repo, session_id)["status"] == "running"
    os.kill(owner.pid, signal.SIGCONT)
    assert finish(owner)[0] == 0
    assert stored_record(repo, session_id)["status"] == "completed"


def test_kill_waits_for_the_owner_and_reports_what_is_true(cli: Gz, repo: Path,
                                                           held_owner: Any):
    """In-process, so the kill reads the record well before the owner goes on."""
    owner, session_id = held_owner
    timer = _resume_later(owner)
    result = cli("--json", "session", "kill", session_id, cwd=repo)
    timer.join()
    assert result.exit_code == 1
    assert [(e["code"], e["message"]) for e in result.json["errors"]] == [
        ("CONFLICT", f"session '{session_id}' is not running (current status: completed)")]
    assert result.json["data"]["status"] == "completed"
    assert finish(owner)[0] == 0
    assert stored_record(repo, session_id)["status"] == "completed"


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "the agent of session '{id}' has ended and the gz-ia running it is still writing "
           "how; try again in a moment"),
    ("es", "el agente de la sesión '{id}' terminó y el gz-ia que lo ejecuta aún está "
           "registrando cómo; reintenta en un momento"),
])
def test_kill_while_the_owner_cannot_write_says_so_and_marks_nothing(
    gz: Gz, repo: Path, held_owner: Any, lang: str, message: str
):
    _, session_id = held_owner
    started = time.monotonic()
    result = gz("--json", "session", "kill", session_id, cwd=repo, env={"GZ_LANG": lang})
    assert time.monotonic() - started >= OWNER_WAIT_S
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "LOCKED", "retryable": True, "hint": None,
        "message": message.format(id=session_id), "details": {"id": session_id}}]
    assert stored_record(repo, session_id)["status"] == "running"


def test_delete_force_in_that_moment_deletes(cli: Gz, repo: Path, held_owner: Any):
    owner, session_id = held_owner
    timer = _resume_later(owner)
    result = cli("--json", "session", "delete", "--force", session_id, cwd=repo)
    timer.join()
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (result.json["data"]["deleted"], result.json["data"]["killed"]) == (True, False)
    assert finish(owner)[0] == 0
    assert not (repo / ".harness" / "sessions" / f"{session_id}.json").exists()


def test_kill_racing_the_agent_exit_never_reports_or_records_lost(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    """30 close-timed trials: kill lands just before, during or just after the agent's exit
    (random delays around it); the answer is either a kill or the owner's own outcome."""
    agent("quick", "note('ready', 1)\ntime.sleep(0.02)\nsys.exit(0)\n")
    store, rng = SessionStore(find_project(repo)), random.Random()  # noqa: S311 - delays
    outcomes: set[str] = set()
    for _ in range(RACE_TRIALS):
        process = gz_start("exec", "--", "quick", cwd=repo)
        wait_for_note(notes, "ready")
        (notes / "ready").unlink()
        session_id = max((repo / ".harness" / "sessions").glob("*.json"),
                         key=lambda p: p.stat().st_mtime).stem
        time.sleep(rng.uniform(0.0, 0.06))
        try:
            result = kill_session(store, session_id, grace_s=0.1)
            assert not result.was_lost, "a live owner's run was reported lost"
            outcome = "killed"
        except ConflictError as refused:
            assert refused.details["status"] == "completed"
            outcome = "completed"
        code, _, _ = finish(process)
        record = stored_record(repo, session_id)
        assert record["status"] == outcome
        assert code == (143 if outcome == "killed" else 0)
        outcomes.add(outcome)
    assert outcomes  # every trial asserted above; which outcomes occur depends on timing


# Records left with pid 0: their creator decides, not a timer.


def _dead_process() -> tuple[int, str]:
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE)
    start = process_start_time(child.pid)
    assert start is not None
    assert child.stdin is not None
    child.stdin.close()
    child.wait(10)
    return child.pid, start


def _setting_up(repo: Path, session_id: str, owner: tuple[int, str]) -> None:
    SessionStore(find_project(repo)).create(SessionRecord(
        id=session_id, pid=0, status="running", started_at=now_rfc3339(),
        working_dir=str(repo), owner_pid=owner[0], owner_start_time=owner[1]))


def test_a_record_without_pid_whose_creator_died_is_lost_at_once(gz: Gz, repo: Path):
    _setting_up(repo, "0123abcd", _dead_process())
    _setting_up(repo, "0123abce", _dead_process())

    killed = gz("--json", "session", "kill", "0123abcd", cwd=repo)
    deleted = gz("--json", "session", "delete", "--force", "0123abce", cwd=repo)

    assert killed.exit_code == 0
    assert (killed.json["data"]["status"], killed.json["data"]["end_reason"]) == ("lost", "lost")
    assert deleted.exit_code == 0, deleted.stdout
    assert deleted.json["data"]["killed"] is False


def test_a_record_without_pid_whose_creator_lives_is_still_starting(
    gz: Gz, repo: Path, tmp_path: Path
):
    """However long ago it started; a live process counts as its creator only if it is a
    gz-ia (here a stand-in named ``gz-ia``): a crafted record naming another live process
    (the test itself) is lost like one whose creator died."""
    stand_in = tmp_path / "gz-ia"
    stand_in.write_text(f"#!{sys.executable}\nimport time\nprint(1, flush=True)\n"
                        "time.sleep(60)\n")
    stand_in.chmod(0o755)
    creator = subprocess.Popen([str(stand_in)], stdout=subprocess.PIPE)
    try:
        assert creator.stdout is not None
        creator.stdout.readline()
        _setting_up(repo, "0123abcd", (creator.pid, process_start_time(creator.pid) or ""))
        _setting_up(repo, "0123abce", (os.getpid(), process_start_time(os.getpid()) or ""))
        store = SessionStore(find_project(repo))
        store.update("0123abcd", lambda r: setattr(r, "started_at", "2026-01-01T00:00:00Z"))

        starting = gz("--json", "session", "kill", "0123abcd", cwd=repo)
        crafted = gz("--json", "session", "kill", "0123abce", cwd=repo)

        assert [e["code"] for e in starting.json["errors"]] == ["LOCKED"]
        assert stored_record(repo, "0123abcd")["status"] == "running"
        assert crafted.exit_code == 0
        assert crafted.json["data"]["status"] == "lost"
    finally:
        creator.kill()
        creator.wait(5)
