"""Claude Code (``claude``): checked against ``claude --help`` of 2.1.197 (docs/drivers.md).

The conversation id is chosen up front (``--session-id <uuid>``) and resumed by it
(``--resume <uuid>``), so a resume never picks another directory's conversation. A session
that never got as far as a transcript (the user quit before the first message) is resumed
with ``--session-id`` again: ``--resume`` would find no conversation. The prompt is the
positional argument after ``--`` (``-p`` would be non-interactive print mode).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from gzia.drivers.base import (
    DOUBLE_CTRL_C,
    ExecutableDriver,
    LaunchRequest,
    Permission,
    QuitKeys,
    guarded_positional,
)
from gzia.i18n import N_, gettext

PERMISSION_FLAGS: dict[Permission, list[str]] = {
    Permission.READONLY: ["--permission-mode", "plan"],
    Permission.SUPERVISED: ["--permission-mode", "default"],
    Permission.AUTONOMOUS: ["--dangerously-skip-permissions"],
}
# `claude -- <word>` still runs the subcommand <word>.
SUBCOMMANDS = frozenset(
    {"agents", "auth", "auto-mode", "doctor", "gateway", "install", "mcp", "plugin", "plugins",
     "project", "setup-token", "ultrareview", "update", "upgrade"}
)


class ClaudeDriver(ExecutableDriver):
    id: ClassVar[str] = "claude"
    display_name: ClassVar[str] = "Claude Code (claude)"
    binary: ClassVar[str] = "claude"
    mcp_support: ClassVar[str] = "flag"
    quit_keys: ClassVar[QuitKeys] = DOUBLE_CTRL_C  # "Press Ctrl-C again to exit"
    # Claude Code refuses to start inside another Claude Code session.
    unset_env: ClassVar[tuple[str, ...]] = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")

    def install_hint(self) -> str:
        return gettext("npm install -g @anthropic-ai/claude-code")

    def new_conversation_id(self) -> str | None:
        return str(uuid.uuid4())

    def arguments(self, request: LaunchRequest) -> list[str]:
        argv = list(PERMISSION_FLAGS[request.permission])
        if request.mcp_config is not None:
            argv += ["--mcp-config", str(request.mcp_config)]
        argv += self._conversation(request)
        if request.prompt:
            argv += ["--", guarded_positional(request.prompt, SUBCOMMANDS, ())]
        return argv

    def _conversation(self, request: LaunchRequest) -> list[str]:
        conversation_id = request.conversation_id
        if conversation_id is None:
            return ["--continue"] if request.resume else []
        checked = _checked_uuid(conversation_id)
        if request.resume and _has_transcript(request.env, checked):
            return ["--resume", checked]
        return ["--session-id", checked]


def _has_transcript(env: Mapping[str, str], conversation_id: str) -> bool:
    """Whether Claude Code stored this conversation (``<config>/projects/<dir>/<id>.jsonl``)."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    config_dir = Path(configured) if configured else home / ".claude"
    return any(config_dir.glob(f"projects/*/{conversation_id}.jsonl"))


def _checked_uuid(conversation_id: str) -> str:
    try:
        return str(uuid.UUID(conversation_id))
    except ValueError:
        from gzia.contract import InvalidInputError

        raise InvalidInputError(
            N_("invalid conversation id for {provider}: '{conversation_id}'"),
            details={"provider": "claude", "conversation_id": conversation_id},
            provider="claude",
            conversation_id=conversation_id,
        ) from None


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = ClaudeDriver()
