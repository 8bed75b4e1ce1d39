"""opencode sub-agents and a running opencode, agy's estimates, pi's conversation lookup."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from gzia.drivers.transcripts import opencode_conversation_since, pi_conversation_since
from gzia.metrics import agy, opencode
from tests.metrics.conftest import FIXTURES, jsonl

OPENCODE_DB = FIXTURES / "opencode" / "home" / ".local" / "share" / "opencode" / "opencode.db"
OPENCODE_SESSION = "ses_dce7e10dfffelfqLx8cAuofkf2"
OPENCODE_WORKTREE = "/home/ops/demo/repo/.harness/worktrees/3ea44959"


def add_child(db: sqlite3.Connection, child: str, parent: str, tokens: dict[str, object],
              tools: list[str]) -> None:
    """A sub-agent session as opencode's task tool writes it: a session with a parent."""
    db.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, "
        "time_created, time_updated) VALUES (?, 'p', ?, 's', ?, 't', '1.18.33', 1, 1)",
        (child, parent, OPENCODE_WORKTREE))
    data = {"role": "assistant", "modelID": "small-model", "cost": 0.25, "tokens": tokens}
    db.execute("INSERT INTO message VALUES (?, ?, 1, 1, ?)",
               (f"msg_{child}", child, json.dumps(data)))
    for n, tool in enumerate(tools):
        db.execute("INSERT INTO part VALUES (?, ?, ?, 1, 1, ?)",
                   (f"prt_{child}_{n}", f"msg_{child}", child,
                    json.dumps({"type": "tool", "tool": tool, "state": {}})))


def test_opencode_sub_agents_are_read_recursively(tmp_path: Path) -> None:
    database = tmp_path / "opencode.db"
    shutil.copy(OPENCODE_DB, database)
    with sqlite3.connect(database) as db:
        tokens = {"input": 5, "output": 2, "reasoning": 1, "cache": {"read": 0, "write": 4}}
        add_child(db, "ses_child", OPENCODE_SESSION, tokens, ["grep", "read"])
        add_child(db, "ses_grandchild", "ses_child", tokens, ["read"])
    assert opencode.sessions_of_directory(database, OPENCODE_WORKTREE) == [OPENCODE_SESSION]

    metrics, notices = opencode.read_sessions(database, [OPENCODE_SESSION])
    assert notices == []
    [child] = metrics.subagents
    [grandchild] = child.metrics.subagents
    assert (child.id, grandchild.id) == ("ses_child", "ses_grandchild")
    assert dict(child.metrics.usage.tool_calls) == {"grep": 1, "read": 1}
    total = metrics.with_subagents()
    assert total.to_json() == {
        "models": ["fake-model", "small-model"], "requests": 4,
        "tokens": {"input": 260, "output": 49, "cache_read": 15, "cache_write": 8,
                   "reasoning": 2},
        "cost_usd": 0.5, "tool_calls": {"grep": 1, "read": 2, "write": 1}}


def test_opencode_is_read_while_opencode_writes(tmp_path: Path) -> None:
    database = tmp_path / "opencode.db"
    shutil.copy(OPENCODE_DB, database)
    writer = sqlite3.connect(database, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # a write in progress, not committed
        writer.execute("UPDATE session SET title = 'busy'")
        metrics, notices = opencode.read_sessions(database, [OPENCODE_SESSION])
        assert (notices, metrics.usage.total().requests) == ([], 2)
        since = opencode_conversation_since({"XDG_DATA_HOME": str(tmp_path / "x")},
                                            Path(OPENCODE_WORKTREE), 0)
        assert since is None  # no database there: nothing found, nothing raised
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_opencode_conversation_found_after_exit(tmp_path: Path) -> None:
    data_home = tmp_path / "data"
    (data_home / "opencode").mkdir(parents=True)
    shutil.copy(OPENCODE_DB, data_home / "opencode" / "opencode.db")
    env = {"XDG_DATA_HOME": str(data_home)}
    worktree = Path(OPENCODE_WORKTREE)
    assert opencode_conversation_since(env, worktree, 1796126934411) == OPENCODE_SESSION
    assert opencode_conversation_since(env, worktree, 1796126934412) is None  # ran earlier
    assert opencode_conversation_since(env, Path("/elsewhere"), 0) is None


def test_a_database_that_is_not_opencode_s(tmp_path: Path) -> None:
    database = tmp_path / "opencode.db"
    sqlite3.connect(database).close()
    metrics, notices = opencode.read_sessions(database, ["ses_x"])
    assert [n.reason for n in notices] == ["unknown_format"]
    assert metrics.usage.total().requests == 0


def test_pi_conversation_found_after_exit(tmp_path: Path) -> None:
    workdir = "/home/ops/demo/repo/.harness/worktrees/6a3d291c"
    folder = tmp_path / "sessions" / "--home-ops-demo-repo-.harness-worktrees-6a3d291c--"
    header = {"type": "session", "version": 3, "id": "new-id", "cwd": workdir}
    jsonl(folder / "b_new-id.jsonl", [header])
    jsonl(folder / "c_other.jsonl", [{**header, "id": "other", "cwd": "/other"}])
    env = {"PI_CODING_AGENT_DIR": str(tmp_path)}
    assert pi_conversation_since(env, Path(workdir), 0) == "new-id"
    assert pi_conversation_since(env, Path(workdir), 4102444800) is None  # nothing since


def agy_step(kind: str, source: str, **fields: object) -> dict[str, object]:
    return {"type": kind, "source": source, **fields}


def test_agy_figures_are_estimated_from_characters(tmp_path: Path) -> None:
    brain = tmp_path / "brain"
    jsonl(brain / "main" / ".system_generated" / "logs" / "transcript.jsonl", [
        agy_step("USER_INPUT", "USER", content="x" * 40),
        agy_step("PLANNER_RESPONSE", "MODEL", content="y" * 9, thinking="z" * 12,
                 toolCalls=[{"name": "invoke_subagent", "args": {"task": "t"}}]),
        agy_step("TOOL_RESULT", "SYSTEM", content='started {"conversationId": "sub-1"}'),
        agy_step("PLANNER_RESPONSE", "MODEL", content="done"),
    ])
    jsonl(brain / "sub-1" / "transcript.jsonl", [
        agy_step("PLANNER_RESPONSE", "MODEL", content="w" * 8,
                 toolCalls=[{"name": "view_file", "args": "a.py"}]),
    ])
    metrics, notices = agy.read_conversations(brain, ["main"])
    assert notices == []
    tool_args = len("invoke_subagent") + len(json.dumps({"task": "t"}))
    result_chars = len('started {"conversationId": "sub-1"}')
    assert metrics.estimated is True
    assert metrics.usage.to_json() == {
        "models": ["(unknown)"], "requests": 2,
        "tokens": {"input": -(-(40 + result_chars) // 4), "output": -(-(9 + tool_args + 4) // 4),
                   "cache_read": 0, "cache_write": 0, "reasoning": 3},
        "cost_usd": None, "tool_calls": {"invoke_subagent": 1}}
    [sub] = metrics.subagents
    assert (sub.id, sub.status) == ("sub-1", "completed")
    assert sub.metrics.usage.to_json()["tokens"]["output"] == -(-(8 + 9 + 4) // 4)


def test_agy_conversations_of_a_workspace_inside_the_run(tmp_path: Path) -> None:
    history = jsonl(tmp_path / "history.jsonl", [
        {"display": "a", "timestamp": 1000, "workspace": "/w", "conversationId": "early"},
        {"display": "b", "timestamp": 2000, "workspace": "/w", "conversationId": "ours"},
        {"display": "c", "timestamp": 2500, "workspace": "/other", "conversationId": "x"},
        {"display": "d", "timestamp": 2600, "workspace": "/w", "conversationId": "ours"},
    ])
    assert agy.conversations_in(history, {"/w"}, (1500, 3000)) == (["ours"], [])
    assert agy.conversations_in(history, {"/w"}, None) == (["early", "ours"], [])
