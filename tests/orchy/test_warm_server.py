"""The warm server a run's owner starts (gz-ia __orchy__) and the relay agents start
(gz-ia __relay__): served through the official SDK client; what happens when the owner
dies; and a relay with no server to reach."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.orchy.conftest import GZ_IA, Served, mcp_session

OWNER = """
import os, sys, time
from pathlib import Path
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.sessions.warm_orchy import relay_socket, warm_orchy

root, session = sys.argv[1], sys.argv[2]
sock = relay_socket(session)
with warm_orchy(SessionStore(find_project(root)), session, sock, Path(root),
                dict(os.environ)) as ready:
    print(json.dumps({"ready": ready, "socket": str(sock)}), flush=True)
    sys.stdin.read()  # until the test closes it (or kills this owner)
print(json.dumps({"socket_left": sock.exists()}), flush=True)
"""


@contextmanager
def owner(served: Served) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A process that owns a warm server of the served session, the way a run's owner
    does; its socket."""
    child = subprocess.Popen([sys.executable, "-c", "import json\n" + OWNER, str(served.root),
                              served.direct], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, start_new_session=True)
    assert child.stdout is not None
    try:
        said = json.loads(child.stdout.readline())
        assert said["ready"] is True
        yield child, Path(said["socket"])
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.wait(30)


def relay(sock: Path, served: Served) -> list[str]:
    """The arguments an agent's configuration gives gz-ia for the relay."""
    return ["__relay__", str(sock), *GZ_IA, "mcp", "--session", served.direct,
            "-d", str(served.root)]


@asynccontextmanager
async def sdk_client(argv: list[str], cwd: Path) -> AsyncIterator[Any]:
    """An initialized official SDK client session on ``argv`` (a real subprocess)."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ),
                                   cwd=cwd)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def direct_tools(served: Served) -> list[str]:
    async def scenario() -> list[str]:
        async with mcp_session(GZ_IA, "--session", served.direct, cwd=served.root) as session:
            return sorted(t.name for t in (await session.list_tools()).tools)
    return anyio.run(scenario)


def test_the_relay_serves_every_tool_of_the_warm_server(served: Served) -> None:
    async def scenario(sock: Path) -> tuple[list[str], dict[str, Any]]:
        async with sdk_client([*GZ_IA, *relay(sock, served)], served.root) as session:
            tools = sorted(t.name for t in (await session.list_tools()).tools)
            info = await session.call_tool("session_info", {})
            return tools, json.loads(info.content[0].text)

    with owner(served) as (child, sock):
        assert oct(sock.stat().st_mode & 0o777) == "0o600"
        assert oct(sock.parent.stat().st_mode & 0o777) == "0o700"
        tools, info = anyio.run(scenario, sock)
        assert info["id"] == served.direct
        child.stdin.close()  # type: ignore[union-attr]  # the run ends
        assert json.loads(child.stdout.readline()) == {"socket_left": False}  # type: ignore[union-attr]
    assert tools == direct_tools(served)


def test_when_the_owner_dies_the_client_gets_an_error_and_gz_ia_mcp_still_serves(
    served: Served
) -> None:
    async def scenario(child: subprocess.Popen[str], sock: Path) -> str:
        from mcp.shared.exceptions import MCPError

        async with sdk_client([*GZ_IA, *relay(sock, served)], served.root) as session:
            await session.call_tool("session_info", {})
            os.killpg(child.pid, signal.SIGKILL)  # the owner dies: nothing closes its server
            with anyio.fail_after(60), pytest.raises(MCPError) as failed:
                while True:  # answered until the server notices, then a clean error
                    await session.call_tool("session_info", {})
                    await anyio.sleep(0.05)
            return str(failed.value)

    with owner(served) as (child, sock):
        error = anyio.run(scenario, child, sock)
    assert "closed" in error.lower(), error
    assert "session_info" in direct_tools(served)  # stdio, as without an owner


def test_a_relay_with_no_server_to_reach_becomes_the_stdio_server(
    served: Served, tmp_path: Path
) -> None:
    """A configuration whose run has ended (a resumed session's old one, say)."""
    async def scenario() -> str:
        argv = [*GZ_IA, *relay(tmp_path / "gone.sock", served)]
        async with sdk_client(argv, served.root) as session:
            info = await session.call_tool("session_info", {})
            return str(json.loads(info.content[0].text)["id"])

    assert anyio.run(scenario) == served.direct


def test_a_socket_that_is_not_private_is_not_trusted(served: Served, tmp_path: Path) -> None:
    """The relay talks only to a socket of this user in a directory only they may enter;
    anything else is no server (it serves stdio itself)."""
    import socket as sockets

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    listener = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
    listener.bind(str(shared / "s.sock"))
    listener.listen()
    try:
        from gzia.supervisor.mcp_relay import connect

        assert connect(str(shared / "s.sock")) is None
        shared.chmod(0o700)
        connection = connect(str(shared / "s.sock"))
        assert connection is not None
        connection.close()
    finally:
        listener.close()


RELAY_IMPORTS = """
import sys
from gzia.cli import main
code = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in
               {"mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "click", "typer",
                "httpx", "json", "pathlib", "logging"})
gzia = sorted(m for m in sys.modules if m.startswith("gzia"))
sys.stderr.write(repr((heavy, gzia)) + "\\n")
sys.exit(code)
"""


def test_the_relay_imports_nothing_heavy(served: Served) -> None:
    with owner(served) as (_, sock):
        done = subprocess.run(
            [sys.executable, "-c", RELAY_IMPORTS, *relay(sock, served)], input="",
            capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    heavy, gzia = eval(done.stderr.splitlines()[-1])  # noqa: S307 - our own repr
    assert heavy == []
    assert gzia == ["gzia", "gzia._version", "gzia.cli", "gzia.supervisor",
                    "gzia.supervisor.mcp_relay", "gzia.supervisor.socket_trust"]


SERVED_THEN_CLIENT = """
import sys
from gzia.cli import main
code = main(["mcp", "--session", sys.argv[1], "-d", sys.argv[2]])
from mcp import ClientSession  # a tool plugin may import the SDK's client in a call
from mcp.client.stdio import stdio_client
print("client", ClientSession.__name__, stdio_client.__name__, code, file=sys.stderr)
"""


def test_the_sdk_client_imports_in_a_process_that_has_served(served: Served) -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    done = subprocess.run(
        [sys.executable, "-c", SERVED_THEN_CLIENT, served.direct, str(served.root)],
        input=json.dumps(initialize) + "\n", capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["serverInfo"]["name"] == "gz-ia"
    assert done.stderr.splitlines()[-1] == "client ClientSession stdio_client 0"


SDK_ALONE = """
import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server


async def call_tool(ctx, params):
    await anyio.sleep(0.5)
    return types.CallToolResult(content=[types.TextContent(text="slept")])


async def main():
    server = Server("bare", on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


def test_the_sdk_alone_drops_answers_in_flight() -> None:
    """python-sdk issue #2678, which gz-ia works around (gzia.orchy.server.InFlight;
    pinned by test_mcp_wire.py::test_requests_written_before_the_end_of_input_are_all_answered).
    When this fails, the SDK answers in-flight requests at the end of input itself, and
    the workaround can go."""
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    requests = [initialize, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "nap", "arguments": {}}}]
    done = subprocess.run([sys.executable, "-c", SDK_ALONE],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=60, check=False)
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert answers[2] == {"jsonrpc": "2.0", "id": 2,
                          "error": {"code": -32000, "message": "Connection closed"}}
