"""The run's owner serves the session's MCP tools warm: an agent that connects the moment
it starts is answered through the relay, in the foreground and in the background.

A stand-in `claude` on PATH starts the server its configuration names as soon as it
runs, asks `initialize` and `tools/list` on the raw wire, and notes what it got and which
program answered it (the relay's command line, still `__relay__` when the warm server
answered; the stdio server's when the relay had to become it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.supervisor.fakes import wait_for_note

Gz = Callable[..., Result]

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "stand-in", "version": "1"}}}
HANDSHAKE = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]

CONNECTS_AT_ONCE = f"""
import json
args = sys.argv[1:]
server = json.load(open(args[args.index("--mcp-config") + 1]))["mcpServers"]["gz-ia"]
child = subprocess.Popen([server["command"], *server["args"]], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
child.stdin.write("".join(json.dumps(m) + "\\n" for m in {HANDSHAKE!r}).encode())
child.stdin.flush()
answers = [json.loads(child.stdout.readline()) for _ in range(2)]
answered_by = open(f"/proc/{{child.pid}}/cmdline").read().split("\\0")
child.stdin.close()
child.wait(60)
note("agent.json", json.dumps({{"server": server, "answers": answers,
                               "answered_by": answered_by}}))
"""


def listed(answer: dict[str, Any]) -> list[str]:
    return sorted(tool["name"] for tool in answer["result"]["tools"])


def direct_listing(session_id: str, repo: Path) -> list[str]:
    """What `gz-ia mcp` over stdio lists for the session (no owner, no relay)."""
    done = subprocess.run(
        [sys.executable, "-m", "gzia", "mcp", "--session", session_id, "-d", str(repo)],
        input="".join(json.dumps(m) + "\n" for m in HANDSHAKE), capture_output=True,
        text=True, timeout=120, check=True)
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    return listed(answers[2])


def wait_gone(path: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not path.exists(), f"{path} is still there"


@pytest.mark.parametrize("background", [False, True], ids=["foreground", "background"])
def test_an_agent_that_connects_at_once_finds_every_tool_on_the_warm_server(
    gz: Gz, agent: Any, repo: Path, notes: Path, background: bool
) -> None:
    agent("claude", CONNECTS_AT_ONCE)
    result = gz("--json", "chat", "-p", "claude", "-i", "go", *(["-b"] if background else []),
                cwd=repo)
    assert result.exit_code == 0, result.stderr
    seen = json.loads(wait_for_note(notes, "agent.json", timeout=120))
    relay_args = seen["server"]["args"]
    assert "__relay__" in seen["answered_by"], seen["answered_by"]  # not the stdio fallback
    assert seen["answers"][0]["result"]["serverInfo"]["name"] == "gz-ia"
    session_id = result.json["data"]["id"]
    assert relay_args[-5:] == ["mcp", "--session", session_id, "-d", str(repo)]
    sock = Path(relay_args[relay_args.index("__relay__") + 1])
    wait_gone(sock)  # the owner stopped its server when the run ended
    assert listed(seen["answers"][1]) == direct_listing(session_id, repo)
