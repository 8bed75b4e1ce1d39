"""Pi Agent (binary ``pi``, else ``pi-agent``): checked against ``pi --help`` of 0.73.1.

pi keeps its conversations per working directory, and each isolated session runs in its
own worktree, so ``--continue`` resumes this session's conversation. pi has no approval
prompts: readonly restricts it to the read-only tools, supervised and autonomous both run
it as it is. Prompts are positional; pi has no ``--`` separator.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from gzia.contract import Permission
from gzia.drivers.base import (
    DOUBLE_CTRL_C,
    ExecutableDriver,
    LaunchRequest,
    QuitKeys,
    StatePath,
    guarded_positional,
)
from gzia.drivers.transcripts import pi_conversation_since, pi_state
from gzia.i18n import gettext

READONLY_TOOLS = "read,grep,find,ls"
SUBCOMMANDS = frozenset({"install", "remove", "uninstall", "update", "list", "config"})
# "-" starts an option, "@" a file include.
MARKERS = ("-", "@")


class PiDriver(ExecutableDriver):
    id: ClassVar[str] = "pi-agent"
    display_name: ClassVar[str] = "Pi Agent (pi-agent)"
    binary: ClassVar[str] = "pi"
    other_binaries: ClassVar[tuple[str, ...]] = ("pi-agent",)  # the name the original looked for
    mcp_support: ClassVar[str] = "none"
    updates_off_env: ClassVar[dict[str, str]] = {"PI_SKIP_VERSION_CHECK": "1"}
    quit_keys: ClassVar[QuitKeys] = DOUBLE_CTRL_C  # "Press Ctrl-C again to exit"
    sandbox_hosts: ClassVar[tuple[str, ...]] = ("api.anthropic.com", "api.openai.com")

    def sandbox_state(self, env: Mapping[str, str]) -> tuple[StatePath, ...]:
        return (StatePath(pi_state(env)),)

    def install_hint(self) -> str:
        return gettext("npm install -g @mariozechner/pi-coding-agent")

    def arguments(self, request: LaunchRequest) -> list[str]:
        argv: list[str] = []
        if request.permission is Permission.READONLY:
            argv += ["--tools", READONLY_TOOLS]
        if request.resume:
            argv.append("--continue")
        if request.prompt:
            argv.append(guarded_positional(request.prompt, SUBCOMMANDS, MARKERS))
        return argv

    def conversation_after_exit(
        self, workdir: Path, env: Mapping[str, str], since: float
    ) -> str | None:
        """pi names its conversation itself: the one of ``workdir`` written since the run
        started (epoch seconds), read once pi has exited."""
        return pi_conversation_since(env, workdir, since)


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = PiDriver()
