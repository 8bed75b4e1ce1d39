"""The wire itself: raw lines on stdin, one JSON-RPC message per line on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.orchy.conftest import Served, assert_gone

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"}}}


class Wire:
    def __init__(self, served: Served, *args: str, env: dict[str, str] | None = None) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "gzia", "mcp", "--session", served.direct, *args],
            cwd=served.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, encoding="utf-8", errors="surrogateescape",
            env={**os.environ, **(env or {})})

    def send(self, line: str) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()

    def ask(self, message: dict[str, Any] | str) -> dict[str, Any]:
        self.send(message if isinstance(message, str) else json.dumps(message))
        return self.read()

    def read(self) -> dict[str, Any]:
        assert self.child.stdout is not None
        answer: dict[str, Any] = json.loads(self.child.stdout.readline())
        return answer

    def close(self) -> tuple[int, str]:
        _, err = self.child.communicate(timeout=30)
        return self.child.returncode, err


def call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


def test_garbage_lines_are_answered_and_the_server_reads_on(served: Served) -> None:
    wire = Wire(served)
    try:
        assert wire.ask("this is not json {")["error"] == {
            "code": -32700, "message": "Parse error: the line is not JSON"}
        invalid = wire.ask("[1, 2]")
        assert (invalid["id"], invalid["error"]["code"]) == (None, -32600)
        assert wire.ask('{"jsonrpc": "1.0", "id": 7, "method": "ping"}')["error"]["code"] \
            == -32600
        assert wire.ask("\udcff\x00" * 3 + "x" * 100_000)["error"]["code"] == -32700
        assert wire.ask(INITIALIZE)["result"]["serverInfo"]["name"] == "gz-ia"
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        assert wire.ask("garbage after the handshake")["error"]["code"] == -32700
        tools = wire.ask({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert "session_info" in {t["name"] for t in tools["result"]["tools"]}
        unknown = wire.ask({"jsonrpc": "2.0", "id": 3, "method": "no/such"})
        assert (unknown["id"], unknown["error"]["code"]) == (3, -32601)
    finally:
        code, err = wire.close()
    assert code == 0, err


def test_a_dead_tool_answers_exactly_as_the_contract_shows(served: Served) -> None:
    wire = Wire(served)
    try:
        wire.ask(INITIALIZE)
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        for request_id in range(5):
            answer = wire.ask(call(request_id + 10, "worktree_read", {"session_id": "deadbeef"}))
            assert answer["result"]["isError"] is True
        assert wire.ask(call(4, "worktree_read", {"session_id": "deadbeef"})) == {
            "jsonrpc": "2.0", "id": 4, "error": {
                "code": -32603,
                "message": '[ToolProxy] circuit breaker tripped for tool "worktree_read": '
                           "status is DEAD after 5 consecutive failures"}}
    finally:
        wire.close()


def test_requests_written_before_the_end_of_input_are_all_answered(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    """A pipe of requests into ``gz-ia mcp``: every request read before stdin ends gets
    its answer, a slow tool's included, and the kernel shuts down only after it."""
    log, pidfile = tmp_path / "lifecycle.log", tmp_path / "sleeper.pid"
    env = {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_LOG": str(log),
           "EXAMPLE_TOOLS_PIDFILE": str(pidfile)}
    requests = [INITIALIZE, INITIALIZED, call(2, "example_sleep", {}),
                call(3, "session_info", {}), {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}]
    done = subprocess.run(
        [sys.executable, "-m", "gzia", "mcp", "--session", served.direct, "--tool-timeout", "1.5"],
        cwd=served.root, input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True, text=True, timeout=60, check=False, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == [1, 2, 3, 4]
    slept = answers[2]["result"]
    assert slept["isError"] is True and "did not finish within 1.5 s" in slept["content"][0]["text"]
    assert_gone(int(pidfile.read_text()))
    assert '"id": "0badc0de"' in answers[3]["result"]["content"][0]["text"]
    assert log.read_text().splitlines() == ["boot example", "boot zz_fragile",
                                            "shutdown example"]


def test_a_call_the_client_cancels_stops_its_programs_and_is_not_waited_for(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    pidfile = tmp_path / "sleeper.pid"
    wire = Wire(served, env={"GZ_PLUGIN_PATH": str(example_tools),
                             "EXAMPLE_TOOLS_PIDFILE": str(pidfile)})
    try:
        wire.ask(INITIALIZE)
        wire.send(json.dumps(INITIALIZED))
        wire.send(json.dumps(call(2, "example_sleep", {})))
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": 2, "reason": "changed my mind"}}))
        health = wire.ask(call(3, "orchy_health", {}))
        sleeper = next(t for t in json.loads(health["result"]["content"][0]["text"])["tools"]
                       if t["name"] == "example_sleep")
        assert sleeper["failed_calls"] == 0  # a cancelled call is not the tool's failure
    finally:
        started = time.monotonic()
        code, err = wire.close()
    assert code == 0, err
    assert time.monotonic() - started < 15  # not the sleeper's minute, nor the 30 s timeout
    assert_gone(int(pidfile.read_text()))
