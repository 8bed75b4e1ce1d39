"""A cap refusal is not a failure of ``session_start`` (docs/orchy.md, "ToolProxy"): an
agent that hits a cap again and again can start its child once one ends, with the
breaker at its strictest; real background sessions, the official MCP SDK client."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from tests.orchy.conftest import GZ_IA, mcp_session
from tests.orchy.test_subsessions import ECHOER, PARENT, call, refused, root, script

__all__ = ["root"]


def test_cap_refusals_never_open_the_breaker_of_session_start(root: Path,
                                                              tmp_path: Path) -> None:
    echoer = script(tmp_path, "echoer", ECHOER)
    env = {"GZ_SUBSESSION_MAX_CHILDREN": "1", "GZ_STOP_TIMEOUT": "2"}

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", PARENT, "-d", str(root), "--tool-timeout",
                               "120", "--max-failures", "2", cwd=root, env=env) as client:
            first = (await call(client, "session_start", {"command": [echoer]}))["id"]
            for _ in range(5):  # each one SAFETY_BLOCK, never the breaker's -32603
                problem = await refused(client, "session_start", {"command": [echoer]})
                assert (problem["code"], problem["details"]["cap"]) == (
                    "SAFETY_BLOCK", "children")
            looser = await refused(client, "session_start",
                                   {"command": [echoer], "permission": "autonomous"})
            assert looser["details"]["cap"] in {"permission", "children"}
            health = json.loads((await client.call_tool("orchy_health", {})).content[0].text)
            start = next(t for t in health["tools"] if t["name"] == "session_start")
            assert (start["status"], start["consecutive_failures"]) == ("HEALTHY", 0)
            await call(client, "session_stop", {"id": first})
            second = await call(client, "session_start", {"command": [echoer]})
            assert second["id"] != first

    anyio.run(scenario)
