"""The MCP server on the official SDK: the only module of gz-ia that imports it.

Two ways in, the same serving: :func:`serve` answers one client on stdin/stdout (``gz-ia
mcp``); :func:`serve_listener` answers every client that connects to a listening Unix
socket (the warm server a run's owner starts, ``gz-ia __orchy__``: gzia.orchy.listen),
until its owner goes away.

stdout carries only protocol messages (the SDK's stdio transport points fd 1 at stderr
while it serves, so a stray print from a tool cannot corrupt the stream); logs go to
stderr. The server reads its input itself, in bounded memory (gzia.orchy.wire): a line
that is not JSON-RPC, is longer than the limit or has an invalid ``id`` is answered with
a JSON-RPC error (``-32700`` when it is not JSON, ``-32600`` otherwise, ``id`` null) and
the server reads on. A tool's result is bounded too (gzia.orchy.results). When the input
ends, every request read before is answered before the connection closes
(:class:`InFlight`).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import socket
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from gzia.orchy.kernel import Kernel
from gzia.orchy.limits import MAX_ERROR_CHARS, MAX_MESSAGE_BYTES
from gzia.orchy.proxy import CircuitOpen
from gzia.orchy.results import bounded_result
from gzia.orchy.tool import failure_problem
from gzia.orchy.wire import Oversized, claimed_stdin, oversized_text, read_lines

SERVER_NAME = "gz-ia"
log = logging.getLogger("gzia.orchy")


def serve(kernel: Kernel, version: str) -> None:
    """Serve one client on stdin/stdout until stdin ends; the kernel is shut down on the
    way out."""
    try:
        anyio.run(_serve_stdio, kernel, version)
    finally:
        kernel.shutdown()


def serve_listener(kernel: Kernel, version: str, listener: socket.socket,
                   on_ready: Callable[[], None]) -> None:
    """Serve every client that connects to ``listener`` until stdin (a pipe from the
    owner of the run) ends: then each connection is closed (its client reads the end of
    input) and the kernel is shut down. ``on_ready`` is called once the server accepts."""
    try:
        anyio.run(_serve_listener, kernel, version, listener, on_ready)
    finally:
        kernel.shutdown()


def _server(kernel: Kernel, version: str) -> Server[Any]:
    return Server(SERVER_NAME, version=version, instructions=_instructions(kernel),
                  on_list_tools=_lister(kernel), on_call_tool=_caller(kernel))


async def _serve_stdio(kernel: Kernel, version: str) -> None:
    with claimed_stdin() as fd_in:
        async with stdio_server(stdin=_NO_SDK_INPUT) as (_, wire_out):
            await _serve_wire(_server(kernel, version), kernel,
                              read_lines(fd_in, MAX_MESSAGE_BYTES), wire_out)


async def _serve_listener(kernel: Kernel, version: str, listener: socket.socket,
                          on_ready: Callable[[], None]) -> None:
    server = _server(kernel, version)
    listener.setblocking(False)
    with claimed_stdin() as owner:
        on_ready()
        async with anyio.create_task_group() as group:
            group.start_soon(_end_when_owner_goes, owner, group.cancel_scope)
            while True:
                await anyio.wait_readable(listener)
                with contextlib.suppress(BlockingIOError, InterruptedError):
                    connection, _ = listener.accept()
                    connection.setblocking(True)
                    group.start_soon(_serve_connection, server, kernel, connection)


async def _end_when_owner_goes(fd: int, scope: anyio.CancelScope) -> None:
    """The owner holds the other end of stdin and never writes: its end (the owner
    stopped the server, or died) is the end of every connection."""
    while fd >= 0:
        await anyio.wait_readable(fd)
        try:
            if not os.read(fd, 4096):
                break
        except OSError:
            break
    scope.cancel()


async def _serve_connection(server: Server[Any], kernel: Kernel,
                            connection: socket.socket) -> None:
    """One client on a connection, as on stdio; a client that goes away ends only its
    own connection."""
    out = anyio.wrap_file(io.TextIOWrapper(socket.SocketIO(connection, "wb"),
                                           encoding="utf-8", write_through=True))
    try:
        async with stdio_server(stdin=_NO_SDK_INPUT, stdout=out) as (_, wire_out):
            await _serve_wire(server, kernel,
                              read_lines(connection.fileno(), MAX_MESSAGE_BYTES), wire_out)
    except Exception as exc:  # the client went away mid-answer: the others go on
        log.info("connection ended: %r", exc)
    finally:
        with contextlib.suppress(OSError):  # wakes a read still blocked on it
            connection.shutdown(socket.SHUT_RDWR)
        connection.close()


async def _serve_wire(server: Server[Any], kernel: Kernel, lines: Any, wire_out: Any) -> None:
    in_flight = InFlight()
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage](0)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as group:
        group.start_soon(_read_client, lines, to_server, wire_out, in_flight,
                         kernel.timeout + DRAIN_MARGIN_S)
        group.start_soon(_write_client, from_server, wire_out, in_flight)
        await server.run(from_client, to_client, server.create_initialization_options())
        await in_flight.written.wait()
        group.cancel_scope.cancel()


class _NoInput:
    """What the SDK's transport is given to read: nothing (the server reads stdin itself,
    so the transport only writes)."""

    def __aiter__(self) -> _NoInput:
        return self

    async def __anext__(self) -> str:
        raise StopAsyncIteration


_NO_SDK_INPUT: Any = _NoInput()


DRAIN_MARGIN_S = 5.0
"""At the end of input, how long past the tool timeout the server still waits for the
answers it owes (every call is bounded by the timeout; this only keeps a surprise from
holding the process forever)."""


class InFlight:
    """Requests read from the client and not answered yet. At the end of input the server
    answers them before it stops, as a pipe of requests into ``gz-ia mcp`` expects.

    A workaround of an SDK bug (python-sdk issue #2678): at the end of its input the
    SDK's server cancels the requests still running, dropping a tool's answer while its
    work goes on, unreported, under a kernel that is shutting down. Pinned by
    tests/orchy/test_mcp_wire.py::test_requests_written_before_the_end_of_input_are_all_answered
    and ::test_the_sdk_alone_drops_answers_in_flight (which fails once upstream answers
    them itself: then this class can go)."""

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self.written = anyio.Event()
        self._settled = anyio.Event()

    def read(self, message: Any) -> None:
        if isinstance(message, types.JSONRPCRequest):
            self.ids.add(message.id)
        elif (isinstance(message, types.JSONRPCNotification)
              and message.method == "notifications/cancelled"):
            self._settle((message.params or {}).get("requestId"))  # never answered

    def answered(self, message: Any) -> None:
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._settle(message.id)

    def _settle(self, request_id: Any) -> None:
        self.ids.discard(request_id)
        self._settled.set()

    async def drained(self, limit_s: float) -> None:
        with anyio.move_on_after(limit_s):
            while self.ids:
                self._settled = anyio.Event()
                await self._settled.wait()


async def _read_client(lines: Any, to_server: Any, wire_out: Any, in_flight: InFlight,
                       drain_limit_s: float) -> None:
    """Forward valid messages to the server and answer each unreadable line with a
    JSON-RPC error; at the end of input, wait for the answers owed, then end the
    server's input."""
    async with to_server:
        async for line in lines:
            try:
                message = _message(line)
            except Malformed as bad:
                log.warning("malformed input: %s", bad.text)
                error = types.ErrorData(code=bad.code, message=bad.text)
                await wire_out.send(SessionMessage(
                    types.JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                continue
            in_flight.read(message)
            await to_server.send(SessionMessage(message))
        await in_flight.drained(drain_limit_s)


class Malformed(Exception):
    """A line that is not a message the server can answer: a JSON-RPC error, ``id`` null."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


def _message(line: bytes | Oversized) -> types.JSONRPCMessage:
    """The JSON-RPC message of ``line``, as the SDK's transport reads it, but a request
    with an invalid ``id`` is refused: the SDK would take it for a notification, which
    is never answered."""
    if isinstance(line, Oversized):
        raise Malformed(types.INVALID_REQUEST, oversized_text(line.size))
    text = line.decode("utf-8", "replace")
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as exc:
        raise _malformed(exc) from None
    if isinstance(message, types.JSONRPCNotification) and _has_id(text):
        raise Malformed(types.INVALID_REQUEST,
                        "Invalid Request: the id must be a string or an integer")
    return message


def _has_id(text: str) -> bool:
    """A notification has no ``id``: one that has is a request whose ``id`` the SDK
    refused (an object, an array, a boolean, a fraction, null)."""
    data = json.loads(text)
    return isinstance(data, dict) and "id" in data


def _malformed(exc: Exception) -> Malformed:
    errors = getattr(exc, "errors", None)
    kinds = {e.get("type") for e in errors()} if callable(errors) else set()
    if "json_invalid" in kinds:
        return Malformed(types.PARSE_ERROR, "Parse error: the line is not JSON")
    return Malformed(types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


async def _write_client(from_server: Any, wire_out: Any, in_flight: InFlight) -> None:
    """Forward the server's messages to stdout, noting each answer; close stdout after
    the last one."""
    try:
        async with from_server, wire_out:
            async for item in from_server:
                await wire_out.send(item)
                in_flight.answered(item.message)
    finally:
        in_flight.written.set()


def _instructions(kernel: Kernel) -> str:
    text = "Tools of the gz-ia session this server serves."
    if kernel.boot_failure:
        failure = kernel.boot_failure
        text += f" No tools: plugin {failure.plugin!r} failed to boot: {failure.error}"
    return text


def _lister(kernel: Kernel) -> Any:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=p.tool.name, description=p.tool.description,
                       input_schema=p.tool.input_schema)
            for p in kernel.proxies.values()
        ])
    return list_tools


def _caller(kernel: Kernel) -> Any:
    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        proxy = kernel.proxies.get(params.name)
        if proxy is None:
            raise MCPError(types.INVALID_PARAMS, _unknown_tool(kernel, params.name))
        try:
            result = await proxy.call(kernel.context, params.arguments or {})
        except CircuitOpen as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from None
        except Exception as exc:
            log.info("tool %s failed: %s", params.name, exc)
            return _error_result(exc)
        return _result(result)
    return call_tool


def _unknown_tool(kernel: Kernel, name: str) -> str:
    if kernel.boot_failure:
        return (f"Unknown tool: {name} (no tools: plugin {kernel.boot_failure.plugin!r} "
                f"failed to boot: {kernel.boot_failure.error})")
    return f"Unknown tool: {name}"


def _result(value: Any) -> types.CallToolResult:
    text, structured = bounded_result(value)
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=structured)


def _error_result(exc: Exception) -> types.CallToolResult:
    """A tool's failure in the contract's problem shape, each text bounded."""
    problem = failure_problem(exc)
    details = problem.details if len(json.dumps(problem.details)) <= MAX_ERROR_CHARS else {}
    data = replace(problem, message=problem.message[:MAX_ERROR_CHARS], details=details,
                   hint=problem.hint[:MAX_ERROR_CHARS] if problem.hint else None).to_json()
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(data))],
                                structured_content={"error": data}, is_error=True)

