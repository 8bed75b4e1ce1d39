"""Google Antigravity (``agy``). Its CLI could not be installed here: the flags come from its
documented 1.0.12 flag set (docs/drivers.md), and unknown flags are fatal to it.

A prompt is accepted only through ``-i/--prompt-interactive``. ``agy --continue`` resumes the
most recent conversation of the whole machine, so it is never used: a resume passes
``--conversation <id>`` when the id is known, and otherwise reopens the agent in the
session's own workspace without history. agy has no read-only mode, so readonly is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from gzia.contract import Permission
from gzia.drivers.base import (
    ExecutableDriver,
    LaunchRequest,
    StatePath,
    checked_conversation_id,
    readonly_unsupported,
)
from gzia.drivers.transcripts import home_of


class AntigravityDriver(ExecutableDriver):
    id: ClassVar[str] = "agy"
    display_name: ClassVar[str] = "Google Antigravity (agy)"
    binary: ClassVar[str] = "agy"
    mcp_support: ClassVar[str] = "none"
    sandbox_hosts: ClassVar[tuple[str, ...]] = ("generativelanguage.googleapis.com",)

    def sandbox_state(self, env: Mapping[str, str]) -> tuple[StatePath, ...]:
        return (StatePath(home_of(env) / ".gemini"),)

    def install_hint(self) -> str:
        return "curl -fsSL https://antigravity.google/cli/install.sh | bash"

    def arguments(self, request: LaunchRequest) -> list[str]:
        if request.permission is Permission.READONLY:
            raise readonly_unsupported(self)
        argv: list[str] = []
        if request.permission is Permission.AUTONOMOUS:
            argv.append("--dangerously-skip-permissions")
        if request.resume and request.conversation_id is not None:
            argv += ["--conversation", checked_conversation_id(self.id, request.conversation_id)]
        if request.prompt:
            argv += ["-i", request.prompt]
        return argv


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = AntigravityDriver()
