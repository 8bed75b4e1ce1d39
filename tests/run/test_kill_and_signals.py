"""Stopping sessions: session kill from another process, and signals sent to gz-ia."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import ConflictError
from gzia.sessions.kill import kill_session
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from tests.run.conftest import GzProcess, normalized, stored_record
from tests.supervisor.fakes import (
    COOPERATIVE,
    STUBBORN_WITH_GRANDCHILD,
    noted_pids,
    pid_running,
    wait_for_note,
)


def only_session_id(repo: Path) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        records = list((repo / ".harness" / "sessions").glob("*.json"))
        if records:
            return records[0].stem
        time.sleep(0.01)
    raise AssertionError("no session record appeared")


def wait_for_pid_recorded(repo: Path, session_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        record = stored_record(repo, session_id)
        if record["pid"]:
            return record
        time.sleep(0.01)
    raise AssertionError("the pid was never recorded")


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=30)
    return process.returncode, out, err


def test_session_kill_of_a_stubborn_agent_leaves_nothing_and_exec_exits_143(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("stubborn", STUBBORN_WITH_GRANDCHILD)
    process = gz_start("--json", "exec", "--", "stubborn", cwd=repo)
    wait_for_note(notes, "ready")
    wait_for_note(notes, "grandchild.pid")
    session_id = only_session_id(repo)
    running = wait_for_pid_recorded(repo, session_id)
    assert running["status"] == "running"
    assert running["pid_start_time"]

    result = kill_session(SessionStore(find_project(repo)), session_id, grace_s=0.1)

    assert result.signal == signal.SIGKILL and not result.was_lost
    code, out, _ = finish(process)
    assert code == 143
    document = json.loads(out)
    record = stored_record(repo, session_id)
    assert document["data"] == record
    assert document["errors"][0]["code"] == "TERMINATED"
    assert (record["status"], record["end_reason"], record["signal"], record["exit_code"]) == (
        "killed", "killed", 9, 137)
    assert record["finished_at"] and record["duration_ms"] is not None
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_killing_a_cooperative_agent_records_sigterm(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("cooperative", COOPERATIVE)
    process = gz_start("exec", "--", "cooperative", cwd=repo)
    wait_for_note(notes, "ready")
    session_id = only_session_id(repo)
    wait_for_pid_recorded(repo, session_id)

    result = kill_session(SessionStore(find_project(repo)), session_id, grace_s=2.0)

    assert result.signal == signal.SIGTERM
    code, _, err = finish(process)
    assert code == 143
    assert err.splitlines()[-2:] == [
        f"Error: session '{session_id}' was terminated (SIGTERM)",
        f"details: gz-ia session show {session_id}",
    ]
    record = stored_record(repo, session_id)
    assert (record["status"], record["end_reason"], record["signal"], record["exit_code"]) == (
        "killed", "killed", 15, 143)


def test_kill_racing_the_agent_exit_leaves_one_consistent_record(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    """The agent exits by itself while kill runs: either writer may win, never both half-way."""
    agent("quick", "note('ready', 1)\ntime.sleep(0.02)\nsys.exit(0)\n")
    store = SessionStore(find_project(repo))
    seen = set()
    for _ in range(6):
        process = gz_start("exec", "--", "quick", cwd=repo)
        wait_for_note(notes, "ready")
        (notes / "ready").unlink()
        session_id = max((repo / ".harness" / "sessions").glob("*.json"),
                         key=lambda p: p.stat().st_mtime).stem
        try:  # just after the agent exits, before its owner's final write: it waits for
            killed = not kill_session(store, session_id, grace_s=0.1).was_lost  # the owner
        except ConflictError:
            killed = False
        code, _, _ = finish(process)
        record = stored_record(repo, session_id)
        SessionRecord.from_json(record)
        assert record["finished_at"] is not None
        if record["status"] == "killed":
            assert (code, record["end_reason"], killed) == (143, "killed", True)
            assert (record["signal"], record["exit_code"]) in ((15, 143), (None, 0))
        else:
            assert (record["status"], code, record["exit_code"], killed) == (
                "completed", 0, 0, False)
        seen.add(record["status"])
    assert seen <= {"killed", "completed"}


def test_killing_a_finished_session_is_an_error(
    gz_start: GzProcess, agent: Any, repo: Path
):
    agent("done", "sys.exit(0)\n")
    assert finish(gz_start("exec", "--", "done", cwd=repo))[0] == 0
    session_id = only_session_id(repo)

    with pytest.raises(ConflictError) as error:
        kill_session(SessionStore(find_project(repo)), session_id, grace_s=0.1)

    assert error.value.message == (
        f"session '{session_id}' is not running (current status: completed)")
    assert stored_record(repo, session_id)["status"] == "completed"


def test_a_stale_running_record_is_reconciled_to_lost(repo: Path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    store = SessionStore(find_project(repo))
    store.create(SessionRecord(id="0123abcd", pid=dead.pid, status="running",
                               started_at="2026-01-01T00:00:00Z", working_dir=str(repo)))

    result = kill_session(store, "0123abcd", grace_s=0.1)

    assert result.was_lost and result.signal is None
    record = stored_record(repo, "0123abcd")
    assert (record["status"], record["end_reason"]) == ("lost", "lost")


@pytest.mark.parametrize(
    "case",
    [(signal.SIGTERM, 143, "TERMINATED"), (signal.SIGHUP, 143, "TERMINATED"),
     (signal.SIGINT, 130, "INTERRUPTED")],
    ids=str,
)
def test_signal_to_gz_ia_is_forwarded_recorded_and_exits(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path, case: tuple[int, int, str]
):
    sent, exit_code, error_code = case
    agent("stubborn", STUBBORN_WITH_GRANDCHILD)
    process = gz_start("--json", "exec", "--", "stubborn", cwd=repo)
    wait_for_note(notes, "grandchild.pid")
    session_id = only_session_id(repo)
    wait_for_pid_recorded(repo, session_id)

    process.send_signal(sent)

    code, out, _ = finish(process)
    assert code == exit_code
    document = json.loads(out)
    assert document["errors"][0]["code"] == error_code
    record = stored_record(repo, session_id)
    assert document["data"] == record
    assert (record["status"], record["end_reason"], record["signal"]) == (
        "killed", "canceled", 9 if sent != signal.SIGINT else 2)
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_record_shape_after_kill(gz_start: GzProcess, agent: Any, repo: Path, notes: Path):
    agent("cooperative", COOPERATIVE)
    process = gz_start("exec", "--", "cooperative", cwd=repo)
    wait_for_note(notes, "ready")
    session_id = only_session_id(repo)
    wait_for_pid_recorded(repo, session_id)
    kill_session(SessionStore(find_project(repo)), session_id, grace_s=1.0)
    finish(process)

    assert normalized(stored_record(repo, session_id)) == {
        "id": "<id>", "pid": "<pid>", "provider": "shell", "status": "killed",
        "permission_level": "supervised", "working_dir": str(repo), "initial_prompt": None,
        "started_at": "<started_at>", "finished_at": "<finished_at>",
        "duration_ms": "<duration_ms>", "exit_code": 143, "is_isolated": True,
        "worktree_dir": "<worktree_dir>", "branch_name": "<branch_name>", "profiles": None,
        "schema_version": 2, "base_branch": "main", "base_commit": "<base_commit>",
        "pgid": "<pgid>", "pid_start_time": "<pid_start_time>",
        "owner_pid": "<owner_pid>", "owner_start_time": "<owner_start_time>",
        "end_reason": "killed",
        "signal": 15, "mode": "exec", "conversation_id": None, "log_path": None,
        "merged_at": None, "merged_commit": None, "updated_at": "<updated_at>",
        "labels": None, "idempotency_key": None,
        "command": ["cooperative"], "state": "exited", "state_since": "<state_since>",
    }


WAITS_FOR_STOP_FILE = """
note("ready", 1)
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "stop")):
    time.sleep(0.02)
"""


def kill_gz_ia_mid_run(gz_start: GzProcess, repo: Path, notes: Path) -> dict[str, Any]:
    """Start an exec, wait until its pid is recorded, then SIGKILL gz-ia itself."""
    process = gz_start("--json", "exec", "--", "agent", cwd=repo)
    wait_for_note(notes, "ready")
    record = wait_for_pid_recorded(repo, only_session_id(repo))
    process.kill()
    process.wait(timeout=30)
    for pipe in (process.stdout, process.stderr):  # the agent still holds their other ends
        assert pipe is not None
        pipe.close()
    return record


def test_after_gz_ia_is_sigkilled_the_record_names_the_agent_until_it_ends_then_lost(
    gz: Any, gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("agent", WAITS_FOR_STOP_FILE)
    started = kill_gz_ia_mid_run(gz_start, repo, notes)

    while_running = gz("--json", "session", "show", started["id"], cwd=repo).json["data"]
    assert (while_running["status"], while_running["pid"]) == ("running", started["pid"])
    assert pid_running(started["pid"])  # documented: the agent outlives a SIGKILLed gz-ia

    (notes / "stop").write_text("")
    deadline = time.monotonic() + 10
    while pid_running(started["pid"]) and time.monotonic() < deadline:
        time.sleep(0.02)

    after = gz("--json", "session", "show", started["id"], cwd=repo)
    assert after.exit_code == 0
    record = after.json["data"]
    assert (record["status"], record["end_reason"]) == ("lost", "lost")
    assert stored_record(repo, started["id"]) == record


def test_an_agent_left_by_a_sigkilled_gz_ia_can_be_killed_with_its_grandchildren(
    gz: Any, gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("agent", STUBBORN_WITH_GRANDCHILD)
    started = kill_gz_ia_mid_run(gz_start, repo, notes)
    wait_for_note(notes, "grandchild.pid")

    result = gz("--json", "session", "kill", started["id"], cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert (record["status"], record["end_reason"], record["signal"]) == ("killed", "killed", 9)
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_a_record_left_without_a_pid_by_a_crash_during_setup_becomes_lost(gz: Any, repo: Path):
    """gz-ia SIGKILLed between writing the record and recording the agent's pid."""
    store = SessionStore(find_project(repo))
    long_ago = "2026-01-01T00:00:00Z"
    store.create(SessionRecord(id="0123abcd", pid=0, status="running", started_at=long_ago,
                               working_dir=str(repo)))
    store.create(SessionRecord(id="0123abce", pid=0, status="running",
                               started_at=now_rfc3339(), working_dir=str(repo)))
    store.create(SessionRecord(id="0123abcf", pid=0, status="running", started_at=long_ago,
                               working_dir=str(repo)))

    killed = gz("--json", "session", "kill", "0123abcd", cwd=repo)
    listed = gz("--json", "session", "list", cwd=repo).json["data"]["sessions"]

    assert {r["id"]: r["status"] for r in listed} == {
        "0123abcd": "lost", "0123abce": "running", "0123abcf": "lost"}
    assert killed.exit_code == 0
    assert (killed.json["data"]["status"], killed.json["data"]["end_reason"]) == ("lost", "lost")
    still_starting = gz("--json", "session", "kill", "0123abce", cwd=repo)
    assert [e["code"] for e in still_starting.json["errors"]] == ["LOCKED"]
