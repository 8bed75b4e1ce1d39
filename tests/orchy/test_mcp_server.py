"""`gz-ia mcp` as a real subprocess, driven by the official MCP SDK client."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from tests.orchy.conftest import GZ_IA, Served, assert_gone, mcp_session
from tests.sessions.session_testkit import run_git

BUILT_IN = ["session_log", "session_info", "orchy_health", "orchy_reset", "session_start",
            "session_wait", "session_status", "session_output", "session_send", "session_stop",
            "session_merge_into_parent", "session_children", "workspace_status",
            "workspace_commit", "worktree_read"]
TRIPPED = ('[ToolProxy] circuit breaker tripped for tool "worktree_read": '
           "status is DEAD after {n} consecutive failures")


def payload(result: Any) -> Any:
    return json.loads(result.content[0].text)


def test_handshake_lists_the_built_in_tools_with_exact_schemas(served: Served) -> None:
    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", "3f9a", cwd=served.root) as client:
            await client.send_ping()
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert sorted(tools) == sorted(BUILT_IN)
            read = tools["worktree_read"].input_schema
            assert read["required"] == ["session_id"]
            assert set(read["properties"]) == {"session_id", "stat_only"}
            assert read["additionalProperties"] is False
            assert tools["workspace_status"].input_schema["properties"] == {}
            bad = await client.call_tool("worktree_read", {"session_id": "3f9a1c7e", "x": 1})
            assert bad.is_error and payload(bad)["message"] == "unknown argument 'x'"

    anyio.run(scenario)


def test_worktree_get_is_offered_only_when_allowed(served: Served) -> None:
    (served.worktree / "feature.txt").write_text("done\n")

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.direct, "--allow-agent-get",
                               cwd=served.root) as client:
            tools = (await client.list_tools()).tools
            get = next(t for t in tools if t.name == "worktree_get")
            assert set(get.input_schema["properties"]) == {"session_id", "squash", "no_commit"}
            merged = payload(await client.call_tool(
                "worktree_get", {"session_id": served.isolated, "squash": True}))
            assert merged["files"] == ["feature.txt"] and merged["squash"] is True

    anyio.run(scenario)
    assert (served.root / "feature.txt").read_text() == "done\n"
    assert "harness(3f9a1c7e)" in run_git(served.root, "log", "--all", "--format=%s")


def test_each_tool_works_on_a_real_session_worktree(served: Served) -> None:
    (served.worktree / "new.txt").write_text("agent work\n")

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated,
                               cwd=served.worktree) as client:  # started inside the worktree
            info = payload(await client.call_tool("session_info", {}))
            assert info["id"] == served.isolated
            assert info["work_tree"] == str(served.worktree)
            read = payload(await client.call_tool(
                "worktree_read", {"session_id": served.isolated, "stat_only": True}))
            assert read["files"] == ["new.txt"] and "1 insertion" in read["diff"]
            status = payload(await client.call_tool("workspace_status", {}))
            assert status["changes"] == ["new.txt"]
            assert status["branch"] == "harness/3f9a1c7e"
            logged = payload(await client.call_tool(
                "session_log", {"action": "tests pass", "stage": "FINISH", "status": "OK"}))
            assert logged["session_id"] == served.isolated and logged["stage"] == "FINISH"
            committed = payload(await client.call_tool("workspace_commit",
                                                       {"message": "agent: add new.txt"}))
            assert committed["committed"] is True and committed["files"] == ["new.txt"]
            again = payload(await client.call_tool("workspace_commit", {"message": "again"}))
            assert again == {**again, "committed": False, "files": []}
            health = payload(await client.call_tool("orchy_health", {}))
            assert health["state"] == "RUNNING"
            assert {t["status"] for t in health["tools"]} == {"HEALTHY"}

    anyio.run(scenario)
    assert run_git(served.worktree, "log", "-1", "--format=%s").strip() == "agent: add new.txt"
    assert run_git(served.worktree, "status", "--porcelain").strip() == ""
    events = served.root / ".harness" / "sessions" / f"{served.isolated}.events.jsonl"
    assert "tests pass" in events.read_text()


@pytest.mark.parametrize("threshold", [5, 3])
def test_failures_trip_the_breaker_and_reset_heals_it(served: Served, threshold: int) -> None:
    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.direct,
                               "--max-failures", str(threshold), cwd=served.root) as client:
            for attempt in range(threshold):
                failed = await client.call_tool("worktree_read", {"session_id": "deadbeef"})
                assert failed.is_error, attempt
                assert payload(failed)["code"] == "NOT_FOUND"
                if attempt == 1:
                    assert _status(await client.call_tool("orchy_health", {})) == "DEGRADED"
            with pytest.raises(MCPError) as tripped:
                await client.call_tool("worktree_read", {"session_id": "deadbeef"})
            assert tripped.value.code == -32603
            assert tripped.value.message == TRIPPED.format(n=threshold)
            assert _status(await client.call_tool("orchy_health", {})) == "DEAD"
            reset = payload(await client.call_tool("orchy_reset", {"tool": "worktree_read"}))
            assert reset["status"] == "HEALTHY" and reset["consecutive_failures"] == 0
            assert (await client.call_tool("worktree_read", {"session_id": "deadbeef"})).is_error

    anyio.run(scenario)


def _status(health: Any) -> str:
    tools = payload(health)["tools"]
    return str(next(t["status"] for t in tools if t["name"] == "worktree_read"))


def test_a_success_makes_a_degraded_tool_healthy(served: Served) -> None:
    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated, cwd=served.root) as client:
            for _ in range(2):
                assert (await client.call_tool("worktree_read",
                                               {"session_id": "deadbeef"})).is_error
            health = payload(await client.call_tool("orchy_health", {}))
            read = next(t for t in health["tools"] if t["name"] == "worktree_read")
            assert read["status"] == "DEGRADED"
            await client.call_tool("worktree_read", {"session_id": served.isolated})
            health = payload(await client.call_tool("orchy_health", {}))
            read = next(t for t in health["tools"] if t["name"] == "worktree_read")
            assert (read["status"], read["consecutive_failures"]) == ("HEALTHY", 0)

    anyio.run(scenario)


def test_a_timed_out_call_counts_and_its_program_is_killed(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    pidfile = tmp_path / "sleeper.pid"
    env = {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_PIDFILE": str(pidfile)}

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated, "--tool-timeout", "1.5",
                               cwd=served.root, env=env) as client:
            started = time.monotonic()
            result = await client.call_tool("example_sleep", {})
            assert time.monotonic() - started < 20
            assert result.is_error
            assert payload(result) == {"code": "TIMEOUT", "message": (
                "tool 'example_sleep' did not finish within 1.5 s and was stopped"),
                "retryable": True, "hint": None, "details": {}}
            assert_gone(int(pidfile.read_text()))
            health = payload(await client.call_tool("orchy_health", {}))
            sleeper = next(t for t in health["tools"] if t["name"] == "example_sleep")
            assert (sleeper["consecutive_failures"], sleeper["failed_calls"]) == (1, 1)
            echoed = payload(await client.call_tool("example_echo", {"text": "still here"}))
            assert echoed == {"echo": "still here", "session": served.isolated}

    anyio.run(scenario)


def test_a_failing_plugin_boot_rolls_back_and_the_server_stays_up(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    log = tmp_path / "lifecycle.log"
    env = {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_LOG": str(log),
           "EXAMPLE_TOOLS_FAIL_BOOT": "1"}

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated, cwd=served.root,
                               env=env) as client:
            assert (await client.list_tools()).tools == []
            with pytest.raises(MCPError) as refused:
                await client.call_tool("session_info", {})
            assert "'zz_fragile' failed to boot: RuntimeError: zz_fragile refuses to boot" \
                in refused.value.message
            await client.send_ping()

    anyio.run(scenario)
    assert log.read_text().splitlines() == ["boot example", "shutdown example"]


def test_a_third_party_tool_plugin_is_loaded_after_the_built_ins(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    log = tmp_path / "lifecycle.log"
    env = {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_LOG": str(log)}

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated, cwd=served.root,
                               env=env) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == [*BUILT_IN, "example_echo", "example_sleep", "example_hold",
                             "example_stdin"]
            echoed = payload(await client.call_tool("example_echo", {"text": "hola"}))
            assert echoed == {"echo": "hola", "session": served.isolated}

    anyio.run(scenario)
    assert log.read_text().splitlines() == ["boot example", "boot zz_fragile",
                                            "shutdown example"]


def test_an_unknown_session_fails_before_serving(served: Served) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "gzia", "mcp", "--session", "deadbeef",
                           "--json"], cwd=served.root, capture_output=True, text=True,
                          timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["errors"][0]["code"] == "NOT_FOUND"
