"""A gz-ia driver for ``example-agent``, a made-up agent CLI.

It shows the whole contract of a third-party driver: subclass ``ExecutableDriver``, name
the binary, turn a launch request into arguments, register under ``gzia.drivers``.
"""

from __future__ import annotations

from gzia.drivers import ExecutableDriver, LaunchRequest, Permission


class ExampleDriver(ExecutableDriver):
    id = "example"
    display_name = "Example Agent (example)"
    binary = "example-agent"
    mcp_support = "flag"
    unset_env = ("EXAMPLE_AGENT_NESTED",)

    def install_hint(self) -> str:
        return "pip install example-agent"

    def arguments(self, request: LaunchRequest) -> list[str]:
        argv = ["--mode", "yolo" if request.permission is Permission.AUTONOMOUS else "ask"]
        if request.mcp_config is not None:
            argv += ["--mcp", str(request.mcp_config)]
        if request.resume:
            argv.append("--continue")
        if request.prompt:
            argv += ["--prompt", request.prompt]
        return argv
