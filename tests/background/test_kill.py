"""session kill of background runs: through the holder, without it, and racing the exit."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import holder_pid, start_background, stored, wait_final, wait_until
from tests.conftest import Result
from tests.shared_fixtures import trials
from tests.supervisor.fakes import STUBBORN_WITH_GRANDCHILD, noted_pids, pid_running, wait_for_note

IGNORES_HUP = """
signal.signal(signal.SIGHUP, signal.SIG_IGN)
ignore_term()
fork_grandchild()
note("ready", 1)
while True:
    time.sleep(1)
"""


def _finished_events(root: Path, session_id: str) -> list[dict[str, object]]:
    path = root / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [e for e in events if e.get("action") == "session finished"]


def test_kill_asks_the_holder_and_stops_the_whole_tree(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("stubborn", STUBBORN_WITH_GRANDCHILD)
    data = start_background(gz, repo, "stubborn")
    wait_for_note(notes, "grandchild.pid")
    result = gz("--json", "session", "kill", data["id"], cwd=repo)
    assert result.exit_code == 0, result
    record = result.json["data"]
    assert (record["status"], record["end_reason"], record["signal"], record["exit_code"]) == (
        "killed", "killed", 9, 137)
    assert record == stored(repo, data["id"])
    assert result.json["warnings"] == []
    assert not pid_running(holder_pid(data))
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []
    assert len(_finished_events(repo, data["id"])) == 1


def test_holder_sigkilled_then_kill_stops_the_agent_by_its_group(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("survivor", IGNORES_HUP)
    data = start_background(gz, repo, "survivor")
    wait_for_note(notes, "grandchild.pid")
    os.kill(holder_pid(data), signal.SIGKILL)
    wait_until(lambda: not pid_running(holder_pid(data)), what="the holder to die")
    time.sleep(0.2)
    assert pid_running(data["pid"])  # it ignores the PTY's hang-up
    poll = gz("--json", "session", "poll", data["id"], cwd=repo).json["data"]
    assert (poll["status"], poll["holder"]) == ("running", "gone")
    sent = gz("--json", "session", "send-keys", data["id"], "x", cwd=repo)
    error = sent.json["errors"][0]
    assert (error["code"], error["hint"]) == ("CONFLICT", f"stop it with: gz-ia session kill "
                                                          f"{data['id']}")
    assert error["message"] == (f"the holder of session '{data['id']}' is gone; its agent "
                                f"(PID {data['pid']}) may still run")
    result = gz("--json", "session", "kill", data["id"], cwd=repo)
    assert result.exit_code == 0, result
    assert (result.json["data"]["status"], result.json["data"]["end_reason"]) == (
        "killed", "killed")
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_holder_and_agent_gone_without_a_final_record_is_lost(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("stubborn", STUBBORN_WITH_GRANDCHILD)
    data = start_background(gz, repo, "stubborn")
    wait_for_note(notes, "grandchild.pid")
    os.kill(holder_pid(data), signal.SIGKILL)
    os.killpg(data["pgid"], signal.SIGKILL)
    wait_until(lambda: not pid_running(data["pid"]) and not pid_running(holder_pid(data)))
    shown = gz("--json", "session", "show", data["id"], cwd=repo).json["data"]
    assert (shown["status"], shown["end_reason"]) == ("lost", "lost")


def test_kill_and_exit_race_leaves_one_final_record(
    gz: Callable[..., Result], repo: Path,
) -> None:
    """Run many times (bounded): the agent exits on its own just as the kill arrives."""
    rounds = trials(12, 60)
    deadline = time.monotonic() + 7.5 * rounds
    outcomes: set[str] = set()
    for attempt in range(rounds):
        if time.monotonic() > deadline:
            break
        delay = 0.05 * (attempt % 6)
        data = start_background(gz, repo, "sh", "-c", f"sleep {0.15 + delay / 2}")
        time.sleep(0.1 + delay / 2)
        killed = gz("--json", "session", "kill", data["id"], cwd=repo)
        final = wait_final(repo, data["id"])
        wait_until(lambda d=data: not pid_running(holder_pid(d)), what="the holder to exit")
        after = stored(repo, data["id"])
        # The first final state seen is the one kept: no writer turns it into another.
        assert (after["status"], after["end_reason"]) == (final["status"], final["end_reason"])
        if killed.exit_code == 0:
            assert (after["status"], after["end_reason"]) == ("killed", "killed")
        else:
            assert killed.json["errors"][0]["code"] == "CONFLICT"
            assert (after["status"], after["end_reason"]) == ("completed", "process_exit")
        assert len(_finished_events(repo, data["id"])) == 1
        outcomes.add(after["status"])
    assert outcomes  # at least one round ran


def test_delete_force_of_a_running_background_session(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("stubborn", STUBBORN_WITH_GRANDCHILD)
    data = start_background(gz, repo, "stubborn")
    wait_for_note(notes, "grandchild.pid")
    result = gz("--json", "session", "delete", "--force", data["id"], cwd=repo)
    assert result.exit_code == 0, result
    assert (result.json["data"]["deleted"], result.json["data"]["killed"]) == (True, True)
    wait_until(lambda: not pid_running(holder_pid(data)), what="the holder to exit")
    assert not (repo / ".harness" / "sessions" / f"{data['id']}.json").exists()
    assert not Path(data["holder"]["socket"]).exists()
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []
