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
                missing = await client.call_tool("worktree_read", {"session_id": "deadbeef"})
                assert missing.is_error
            with pytest.raises(MCPError) as tripped:
                await client.call_tool("worktree_read", {"session_id": "deadbeef"})
            assert (tripped.value.code, tripped.value.message) == (-32603, (
                '[ToolProxy] circuit breaker tripped for tool "worktree_read": '
                "status is DEAD after 2 consecutive failures"))

    anyio.run(scenario)


@pytest.mark.pyz
def test_the_pyz_serves_warm_and_relays(pyz: Path, served: Served, tmp_path: Path) -> None:
    """The forms a run's owner and its agent start, from the archive: ``__orchy__`` on a
    private socket the owner bound, ``__relay__`` to it (which loads no SDK)."""
    from gzia.supervisor.runtime_dir import bind_private_socket

    private = tmp_path / "run"
    private.mkdir(mode=0o700)
    sock = private / "s.sock"
    listener = bind_private_socket(sock)
    listener.setblocking(True)
    server = subprocess.Popen(
        [sys.executable, str(pyz), "__orchy__", served.direct, str(served.root),
         str(listener.fileno())], pass_fds=(listener.fileno(),), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE)
    listener.close()
    try:
        assert server.stdout is not None and server.stdout.readline() == b"ready\n"
        handshake = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pyz", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "session_info", "arguments": {}}}]
        done = subprocess.run(
            [sys.executable, "-X", "importtime", str(pyz), "__relay__", str(sock), "false"],
            input="".join(json.dumps(m) + "\n" for m in handshake), capture_output=True,
            text=True, timeout=120, check=False)
    finally:
        assert server.stdin is not None
        server.stdin.close()
        code = server.wait(60)
    assert done.returncode == 0, done.stderr[-2000:]
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert answers[1]["result"]["serverInfo"]["name"] == "gz-ia"
    assert '"id": "0badc0de"' in answers[2]["result"]["content"][0]["text"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "gzia.supervisor.mcp_relay" in imported
    assert {"mcp", "mcp_types", "pydantic", "anyio", "click", "json"} & imported == set()
    assert code == 0
