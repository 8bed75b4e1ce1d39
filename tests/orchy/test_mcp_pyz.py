"""`gz-ia mcp` from the built pyz: the SDK and pydantic-core travel inside the archive."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from release.artifacts import PYTHON_VERSIONS
from release.interpreters import find_cpythons
from tests.orchy.conftest import Served, mcp_session


@pytest.fixture(scope="session")
def cpythons() -> dict[str, Path]:
    """Every CPython 3.11+ of this machine, the one running the tests always among them."""
    return {**find_cpythons(),
            f"{sys.version_info[0]}.{sys.version_info[1]}": Path(sys.executable)}


@pytest.mark.pyz
@pytest.mark.parametrize("version", PYTHON_VERSIONS)
def test_the_pyz_serves_mcp_on_every_supported_cpython(
    pyz: Path, served: Served, cpythons: dict[str, Path], version: str
) -> None:
    """Whichever Python built it, the archive carries pydantic-core and the other compiled
    dependencies for each CPython a release supports."""
    interpreter = cpythons.get(version)
    if interpreter is None:
        pytest.skip(f"no CPython {version} on this machine")

    async def scenario() -> None:
        async with mcp_session([str(interpreter), str(pyz)], "--session", served.direct,
                               cwd=served.root) as client:
            info = await client.call_tool("session_info", {})
            assert json.loads(info.content[0].text)["id"] == served.direct

    anyio.run(scenario)


@pytest.mark.pyz
def test_the_pyz_serves_the_session_and_trips_the_breaker(pyz: Path, served: Served) -> None:
    async def scenario() -> None:
        async with mcp_session([sys.executable, str(pyz)], "--session", served.direct,
                               "--max-failures", "2", cwd=served.root) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"session_info", "worktree_read", "orchy_reset", "session_start"} <= names
            info = await client.call_tool("session_info", {})
            assert json.loads(info.content[0].text)["id"] == served.direct
            for _ in range(2):
                assert (await client.call_tool("workspace_commit", {"message": "m"})).is_error
            with pytest.raises(MCPError) as tripped:
                await client.call_tool("workspace_commit", {"message": "m"})
            assert (tripped.value.code, tripped.value.message) == (-32603, (
                '[ToolProxy] circuit breaker tripped for tool "workspace_commit": '
                "status is DEAD after 2 consecutive failures"))

    anyio.run(scenario)


@pytest.mark.pyz
def test_the_pyz_serves_the_agents_form_without_the_http_stack(
    pyz: Path, served: Served
) -> None:
    """The form agents are handed (gzia/sessions/mcp_wiring.py) is served with the SDK's
    HTTP-only modules left as stand-ins (bench/orchy.py)."""
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "pyz", "version": "1"}}}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", str(pyz), "mcp", "--session", served.direct,
         "-d", str(served.root)],
        input=json.dumps(initialize) + "\n", capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["result"]["serverInfo"]["name"] == "gz-ia"
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert {"mcp.server.lowlevel.server", "gzia.orchy.server"} <= imported
    assert {"uvicorn", "sse_starlette", "httpx", "mcp.shared.auth",
            "starlette.datastructures"} & imported == set()  # each imported by the real ones
