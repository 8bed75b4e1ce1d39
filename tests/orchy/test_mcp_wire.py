"""The wire itself: raw lines on stdin, one JSON-RPC message per line on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.orchy.conftest import Served

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"}}}


class Wire:
    def __init__(self, served: Served, *args: str) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "gzia", "mcp", "--session", served.direct, *args],
            cwd=served.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, encoding="utf-8", errors="surrogateescape")

    def send(self, line: str) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(line + "\n")
        self.child.stdin.flush()

    def ask(self, message: dict[str, Any] | str) -> dict[str, Any]:
        self.send(message if isinstance(message, str) else json.dumps(message))
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
            answer = wire.ask(call(request_id + 10, "workspace_commit", {"message": "m"}))
            assert answer["result"]["isError"] is True
        assert wire.ask(call(4, "workspace_commit", {"message": "m"})) == {
            "jsonrpc": "2.0", "id": 4, "error": {
                "code": -32603,
                "message": '[ToolProxy] circuit breaker tripped for tool "workspace_commit": '
                           "status is DEAD after 5 consecutive failures"}}
    finally:
        wire.close()
