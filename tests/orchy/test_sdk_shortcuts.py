"""The two import shortcuts of gzia/orchy/server.py hold for the pinned SDK and pydantic.

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
import gzia.orchy.server
import mcp_types
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.")),
    "inits_run": [getattr(sys.modules[name], "__file__", None) is not None
                  for name in ("mcp", "mcp.server")],
    "tool_built": mcp_types.Tool.__pydantic_complete__,
    "default_after": config_defaults["defer_build"],
}))
"""


def probe() -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, check=True)
    result: dict[str, object] = json.loads(done.stdout)
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


def test_protocol_models_are_built_on_first_use_and_the_default_is_restored() -> None:
    seen = probe()
    assert seen["tool_built"] is False
    assert seen["default_after"] is False


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
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=True)
    dumped, error = done.stdout.splitlines()
    assert json.loads(dumped) == {"name": "t", "inputSchema": {"type": "object"}}
    assert error == "ValidationError"
