"""The import shortcuts of gzia/orchy/sdk_shortcuts.py hold for the pinned SDK and pydantic.

They serve bench/orchy.py (start → ``initialize``). Each check runs in a fresh process
(never this one: importing the server changes what a process has imported); when an upgrade of
``mcp`` or ``pydantic`` moves what the shortcuts rely on, these fail and say what moved.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

PROBE = """
import json, sys
from pydantic._internal._config import config_defaults
from pydantic import BaseModel
from pydantic.type_adapter import TypeAdapter
import gzia.orchy.server
import mcp_types
from mcp.server.lowlevel import server as lowlevel
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.")),
    "inits_run": [getattr(sys.modules[name], "__file__", None) is not None
                  for name in ("mcp", "mcp.server")],
    "tool_built": mcp_types.Tool.__pydantic_complete__,
    "default_after": config_defaults["defer_build"],
    "adapter_built": mcp_types._types.client_request_adapter.pydantic_complete,
    "rebuilt_at_import": mcp_types.CallToolRequestParams.__pydantic_complete__,
    "rebuild_after": type(vars(BaseModel)["model_rebuild"]).__name__,
    "adapters_default_after": TypeAdapter._defer_build.fget.__qualname__,
    "starlette_loaded": sorted(m for m in sys.modules if m.split(".")[0] == "starlette"),
    "stand_in": repr(lowlevel.Starlette),
    "finders": [type(finder).__name__ for finder in sys.meta_path],
}))
"""


def run(program: str) -> str:
    """What ``program`` prints, run in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=True).stdout


def probe() -> dict[str, object]:
    result: dict[str, object] = json.loads(run(PROBE))
    return result


def test_the_pinned_versions_are_the_ones_the_shortcuts_were_written_for() -> None:
    assert version("mcp") == "2.3.0"
    assert version("mcp-types") == "2.3.0"
    assert version("pydantic") == "2.14.4"


def test_the_server_imports_neither_the_client_nor_the_high_level_server() -> None:
    seen = probe()
    modules = seen["modules"]
    assert isinstance(modules, list)
    assert "mcp.server.lowlevel.server" in modules
    assert "mcp.server.stdio" in modules
    assert not [m for m in modules if m.startswith(("mcp.client", "mcp.server.mcpserver"))]
    assert seen["inits_run"] == [False, False]


def test_http_only_modules_are_stand_ins_that_leave_nothing_behind() -> None:
    seen = probe()
    modules = seen["modules"]
    assert isinstance(modules, list)
    assert not [m for m in modules if m.startswith(("mcp.server.auth", "mcp.server.streamable"))]
    assert seen["starlette_loaded"] == []
    assert seen["stand_in"] == "<stand-in for starlette.applications.Starlette>"
    finders = seen["finders"]
    assert isinstance(finders, list)
    assert "StandInFinder" not in finders  # a later import gets the real module


def test_the_http_transport_fails_plainly_and_a_later_import_is_real() -> None:
    program = (
        "import gzia.orchy.server\n"
        "from mcp.server.lowlevel.server import Server\n"
        "try:\n"
        "    Server('x').streamable_http_app()\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n"
        "import starlette.applications\n"
        "print(starlette.applications.Starlette.__module__)\n"
    )
    assert run(program).splitlines() == [
        "mcp.server.transport_security.TransportSecuritySettings is not available: gz-ia "
        "imported the MCP SDK without its HTTP transports", "starlette.applications"]


def test_a_process_that_imported_starlette_first_keeps_the_real_one() -> None:
    program = (
        "import starlette.applications\n"
        "import gzia.orchy.server\n"
        "from mcp.server.lowlevel import server\n"
        "print(server.Starlette is starlette.applications.Starlette)\n"
    )
    assert run(program).strip() == "True"


def test_protocol_models_are_built_on_first_use_and_the_default_is_restored() -> None:
    seen = probe()
    assert seen["tool_built"] is False
    assert seen["default_after"] is False
    assert seen["adapter_built"] is False
    assert seen["rebuilt_at_import"] is False
    assert seen["rebuild_after"] == "classmethod"
    assert seen["adapters_default_after"] == "TypeAdapter._defer_build"


def test_a_model_the_sdk_rebuilds_at_import_is_built_when_first_used() -> None:
    program = (
        "import gzia.orchy.server\n"
        "from pydantic import BaseModel\n"
        "from mcp_types import CallToolRequestParams\n"
        "params = CallToolRequestParams.model_validate({'name': 't', 'arguments': {'a': 1}})\n"
        "print(params.name, params.arguments, CallToolRequestParams.__pydantic_complete__)\n"
        "class Later(BaseModel):\n"
        "    x: 'Undefined'\n"
        "print(Later.model_rebuild(raise_errors=False))\n"
    )
    assert run(program).splitlines() == ["t {'a': 1} True", "False"]


def test_an_adapter_made_while_deferred_still_validates() -> None:
    program = (
        "import gzia.orchy.server\n"
        "from mcp_types._types import client_request_adapter\n"
        "request = client_request_adapter.validate_python({'method': 'ping'})\n"
        "print(type(request).__name__, client_request_adapter.pydantic_complete)\n"
    )
    assert run(program).split() == ["PingRequest", "True"]


def test_a_model_defined_while_deferred_still_validates() -> None:
    program = (
        "import gzia.orchy.server, mcp_types\n"
        "tool = mcp_types.Tool(name='t', input_schema={'type': 'object'})\n"
        "print(tool.model_dump_json(by_alias=True, exclude_none=True))\n"
        "try:\n"
        "    mcp_types.Tool(name=3, input_schema={})\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    dumped, error = run(program).splitlines()
    assert json.loads(dumped) == {"name": "t", "inputSchema": {"type": "object"}}
    assert error == "ValidationError"
