"""Example tools: ``example_echo``, ``example_sleep`` (a program that outlives its call)
``example_hold`` (a call held until released) and ``example_stdin`` (what a program the
tool starts, inheriting the server's stdin, can read of it).

``EXAMPLE_TOOLS_LOG``: a file where the plugins write ``boot <name>``/``shutdown <name>``.
``EXAMPLE_TOOLS_FAIL_BOOT``: when set, the ``zz_fragile`` plugin refuses to boot.
``EXAMPLE_TOOLS_PIDFILE``: where ``example_sleep``'s program writes its pid.
``EXAMPLE_TOOLS_GATE``: a directory where ``example_hold {"id": N}`` writes ``held-N``
once it runs, then waits (up to a minute) for ``release-N`` and succeeds;
``example_hold {"fail": true}`` fails at once.
``EXAMPLE_TOOLS_BOOT_GATE``: a directory; the ``example`` plugin's boot is slow there (as
one that reaches a slow service): it writes ``booting`` (its process id), then waits (up
to a minute) for ``boot-release``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
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


def hold(context: ToolContext, args: dict[str, Any]) -> str:
    if args["fail"]:
        raise RuntimeError("example_hold was asked to fail")
    gate = Path(os.environ["EXAMPLE_TOOLS_GATE"])
    (gate / f"held-{args['id']}").touch()
    deadline = time.monotonic() + 60
    while not (gate / f"release-{args['id']}").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("example_hold was never released")
        time.sleep(0.01)
    return f"released {args['id']}"


def stdin_reader(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    import subprocess

    program = "import sys; print(len(sys.stdin.buffer.read()))"
    read = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=30, check=True)
    return {"bytes_read": int(read.stdout)}


HOLD_SCHEMA = object_schema({"id": {"type": "integer", "default": 0},
                             "fail": {"type": "boolean", "default": False}})


class ExamplePlugin:
    def boot(self, context: ToolContext) -> list[Tool]:
        _slow_boot()
        _note("boot example")
        return [
            Tool("example_echo", "Echo a text.",
                 object_schema({"text": {"type": "string"}}, required=("text",)), echo),
            Tool("example_sleep", "Run a program that sleeps for a minute.",
                 object_schema({}), sleep),
            Tool("example_hold", "Wait until the test releases the call.", HOLD_SCHEMA, hold),
            Tool("example_stdin", "Count what a program reads of its inherited stdin.",
                 object_schema({}), stdin_reader),
        ]

    def shutdown(self) -> None:
        _note("shutdown example")


def _slow_boot() -> None:
    gate = os.environ.get("EXAMPLE_TOOLS_BOOT_GATE")
    if not gate:
        return
    (Path(gate) / "booting.tmp").write_text(str(os.getpid()))
    (Path(gate) / "booting.tmp").replace(Path(gate) / "booting")  # whole, or not there
    deadline = time.monotonic() + 60
    while not (Path(gate) / "boot-release").exists() and time.monotonic() < deadline:
        time.sleep(0.01)


class FragilePlugin:
    def boot(self, context: ToolContext) -> list[Tool]:
        if os.environ.get("EXAMPLE_TOOLS_FAIL_BOOT"):
            raise RuntimeError("zz_fragile refuses to boot")
        _note("boot zz_fragile")
        return []


plugin = ExamplePlugin()
fragile = FragilePlugin()
