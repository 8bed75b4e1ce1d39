"""Example tools: ``example_echo`` and ``example_sleep`` (a program that outlives its call).

``EXAMPLE_TOOLS_LOG``: a file where the plugins write ``boot <name>``/``shutdown <name>``.
``EXAMPLE_TOOLS_FAIL_BOOT``: when set, the ``zz_fragile`` plugin refuses to boot.
``EXAMPLE_TOOLS_PIDFILE``: where ``example_sleep``'s program writes its pid.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from gzia import proc
from gzia.orchy.tool import Tool, ToolContext, object_schema


def _note(line: str) -> None:
    path = os.environ.get("EXAMPLE_TOOLS_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def echo(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return {"echo": args["text"], "session": context.session_id}


SLEEPER = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(60)"


def sleep(context: ToolContext, args: dict[str, Any]) -> str:
    proc.run([sys.executable, "-c", SLEEPER, os.environ["EXAMPLE_TOOLS_PIDFILE"]],
             timeout=120)
    return "slept"


class ExamplePlugin:
    def boot(self, context: ToolContext) -> list[Tool]:
        _note("boot example")
        return [
            Tool("example_echo", "Echo a text.",
                 object_schema({"text": {"type": "string"}}, required=("text",)), echo),
            Tool("example_sleep", "Run a program that sleeps for a minute.",
                 object_schema({}), sleep),
        ]

    def shutdown(self) -> None:
        _note("shutdown example")


class FragilePlugin:
    def boot(self, context: ToolContext) -> list[Tool]:
        if os.environ.get("EXAMPLE_TOOLS_FAIL_BOOT"):
            raise RuntimeError("zz_fragile refuses to boot")
        _note("boot zz_fragile")
        return []


plugin = ExamplePlugin()
fragile = FragilePlugin()
