"""The stdio MCP server on the official SDK: the only module of gz-ia that imports it.

stdout carries only protocol messages (the SDK's stdio transport points fd 1 at stderr
while it serves, so a stray print from a tool cannot corrupt the stream); logs go to
stderr. A line that is not JSON-RPC is answered with a JSON-RPC error (``-32700`` when
it is not JSON, ``-32600`` otherwise, ``id`` null) and the server reads on.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import sys
import types as modules
from collections.abc import Iterator
from typing import Any

# The two shortcuts below serve bench/orchy.py (process start → ``initialize`` < 1.0 s):
# importing the SDK is nearly all of a server's start. Both are pinned against
# mcp==2.3.0 and pydantic==2.14.4 by tests/orchy/test_sdk_shortcuts.py, which fails when
# either package's layout changes; without them the server works the same, only slower.
SDK_PACKAGES = ("mcp", "mcp.server")


def _skip_package_inits(*names: str) -> None:
    """Register ``names`` as bare packages so importing their submodules skips their
    ``__init__``: the SDK's ``mcp`` and ``mcp.server`` inits import the client, the
    high-level server and their models, which the stdio low-level server never uses.
    Only when the SDK is not imported yet (a process that uses it keeps the real ones)."""
    if names[0] in sys.modules:
        return
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            return
        package = modules.ModuleType(name)
        package.__path__ = list(spec.submodule_search_locations)
        package.__spec__ = spec
        sys.modules[name] = package


@contextlib.contextmanager
def _deferred_model_builds() -> Iterator[None]:
    """Pydantic models defined meanwhile build their validators when first used, not
    when defined (pydantic's ``defer_build``): the SDK defines about a thousand protocol
    models for two protocol generations, and a session serves a few dozen. Set through
    pydantic's table of config defaults, restored on the way out."""
    try:
        from pydantic._internal._config import config_defaults
    except ImportError:
        config_defaults = {}
    if config_defaults.get("defer_build") is not False:
        yield
        return
    config_defaults["defer_build"] = True
    try:
        yield
    finally:
        config_defaults["defer_build"] = False


_skip_package_inits(*SDK_PACKAGES)
with _deferred_model_builds():
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError
    from mcp.shared.message import SessionMessage

from gzia.contract import GzError  # noqa: E402
from gzia.orchy.kernel import Kernel  # noqa: E402
from gzia.orchy.proxy import CircuitOpen  # noqa: E402

SERVER_NAME = "gz-ia"
log = logging.getLogger("gzia.orchy")


def serve(kernel: Kernel, version: str) -> None:
    """Serve until stdin ends; the kernel is shut down on the way out."""
    try:
        anyio.run(_serve, kernel, version)
    finally:
        kernel.shutdown()


async def _serve(kernel: Kernel, version: str) -> None:
    server: Server[Any] = Server(SERVER_NAME, version=version,
                                 instructions=_instructions(kernel),
                                 on_list_tools=_lister(kernel), on_call_tool=_caller(kernel))
    async with stdio_server() as (wire_in, wire_out):
        checked_out, checked_in = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as group:
            group.start_soon(_answer_malformed, wire_in, checked_out, wire_out)
            await server.run(checked_in, wire_out, server.create_initialization_options())
            group.cancel_scope.cancel()


async def _answer_malformed(wire_in: Any, checked_out: Any, wire_out: Any) -> None:
    """Forward valid messages; answer each unreadable line with a JSON-RPC error."""
    async with checked_out:
        async for item in wire_in:
            if not isinstance(item, Exception):
                await checked_out.send(item)
                continue
            code, text = _malformed(item)
            log.warning("malformed input: %s", text)
            error = types.JSONRPCError(jsonrpc="2.0", id=None,
                                       error=types.ErrorData(code=code, message=text))
            await wire_out.send(SessionMessage(error))


def _malformed(exc: Exception) -> tuple[int, str]:
    errors = getattr(exc, "errors", None)
    kinds = {e.get("type") for e in errors()} if callable(errors) else set()
    if "json_invalid" in kinds:
        return types.PARSE_ERROR, "Parse error: the line is not JSON"
    return types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"


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
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    structured = value if isinstance(value, dict) else None
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=structured)


def _error_result(exc: Exception) -> types.CallToolResult:
    if isinstance(exc, GzError):
        data = {"code": exc.code.value, "message": exc.message}
        if exc.hint:
            data["hint"] = exc.hint
    else:
        data = {"code": "INTERNAL", "message": f"{type(exc).__name__}: {exc}"}
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(data))],
                                structured_content={"error": data}, is_error=True)

