"""chat -b and resume -b (and session resume -b): the same sessions, owned by a holder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import holder_pid, wait_final
from tests.conftest import Result
from tests.run.conftest import claude_state_settings
from tests.run.test_chat_and_resume import FAKE_CLAUDE, calls


def test_chat_then_resume_in_the_background(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("claude", FAKE_CLAUDE)
    started = gz("--json", "chat", "-b", "-p", "claude", "-i", "fix the bug", cwd=repo)
    assert started.exit_code == 0, started.stderr
    record = started.json["data"]
    assert (record["status"], record["mode"], record["provider"]) == ("running", "chat",
                                                                       "claude")
    assert holder_pid(record) > 0
    first = wait_final(repo, record["id"])
    assert (first["status"], first["exit_code"]) == ("completed", 0)
    resumed = gz("--json", "resume", "-b", record["id"], cwd=repo)
    assert resumed.exit_code == 0, resumed.stderr
    again = resumed.json["data"]
    assert (again["id"], again["status"]) == (record["id"], "running")
    assert again["holder"]["pid"] != record["holder"]["pid"]
    assert wait_final(repo, record["id"])["status"] == "completed"
    through_session = gz("--json", "session", "resume", "-b", record["id"], cwd=repo)
    assert through_session.json["data"]["status"] == "running"
    wait_final(repo, record["id"])
    conversation = record["conversation_id"]
    mcp = ["--mcp-config", str(repo / ".harness" / "mcp" / f"{record['id']}.json")]  # Orchy
    with_prompt = claude_state_settings(repo, record["id"], prompt=True)
    without = claude_state_settings(repo, record["id"], prompt=False)
    assert [call["argv"] for call in calls(notes)] == [
        ["--permission-mode", "default", *mcp, *with_prompt, "--session-id", conversation, "--",
         "fix the bug"],
        ["--permission-mode", "default", *mcp, *without, "--resume", conversation],
        ["--permission-mode", "default", *mcp, *without, "--resume", conversation],
    ]
    assert {call["cwd"] for call in calls(notes)} == {record["worktree_dir"]}
