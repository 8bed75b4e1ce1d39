"""Claude Code (``claude``): checked against ``claude --help`` of 2.1.197 (docs/drivers.md).

The conversation id is chosen up front (``--session-id <uuid>``) and resumed by it
(``--resume <uuid>``), so a resume never picks another directory's conversation. A session
that never got as far as a transcript (the user quit before the first message) is resumed
with ``--session-id`` again: ``--resume`` would find no conversation. The prompt is the
positional argument after ``--`` (``-p`` would be non-interactive print mode).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from gzia.contract import InvalidInputError, Permission
from gzia.drivers.base import (
    AGENT_FLUSH_GRACE_MS,
    DOUBLE_CTRL_C,
    STATE_HOOKS,
    ExecutableDriver,
    LaunchRequest,
    QuitKeys,
    StatePath,
    guarded_positional,
)
from gzia.drivers.transcripts import claude_state
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
    updates_off_env: ClassVar[dict[str, str]] = {"DISABLE_AUTOUPDATER": "1"}
    state_method: ClassVar[str] = STATE_HOOKS
    kill_grace_ms: ClassVar[int | None] = AGENT_FLUSH_GRACE_MS  # docs/drivers.md, "Stopping"
    sandbox_hosts: ClassVar[tuple[str, ...]] = ("api.anthropic.com",)

    def sandbox_state(self, env: Mapping[str, str]) -> tuple[StatePath, ...]:
        config_dir, settings = claude_state(env)
        return StatePath(config_dir), StatePath(settings, directory=False)

    def install_hint(self) -> str:
        return gettext("npm install -g @anthropic-ai/claude-code")

    def new_conversation_id(self) -> str | None:
        return str(uuid.uuid4())

    def arguments(self, request: LaunchRequest) -> list[str]:
        argv = list(PERMISSION_FLAGS[request.permission])
        if request.mcp_config is not None:
            argv += ["--mcp-config", str(request.mcp_config)]
        settings = session_settings(request)
        if settings:
            argv += ["--settings", json.dumps(settings, separators=(",", ":"))]
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


    def hook_state(self, payload: Mapping[str, Any]) -> tuple[str, str | None] | None:
        """The state a hook's payload reports (``hook_event_name`` and its fields)."""
        event = payload.get("hook_event_name")
        if event == "Notification":
            kind = payload.get("notification_type")
            if kind == "idle_prompt":
                return "idle", None
            if kind in WAITING_NOTIFICATIONS:
                message = payload.get("message")
                return "waiting", message if isinstance(message, str) else None
            return None
        if event == "PermissionRequest":
            tool = payload.get("tool_name")
            return "waiting", f"permission: {tool}" if isinstance(tool, str) else None
        found = STATE_OF_HOOK.get(event) if isinstance(event, str) else None
        return (found, None) if found is not None else None


STATE_OF_HOOK = {"UserPromptSubmit": "working", "PostToolUse": "working",
                 "Stop": "idle", "SessionStart": "idle"}
"""Hook events and the state each reports (Notification and PermissionRequest aside)."""
WAITING_NOTIFICATIONS = frozenset({"permission_prompt", "elicitation_dialog"})
HOOK_TIMEOUT_S = 10


def session_settings(request: LaunchRequest) -> dict[str, Any]:
    """The session's ``--settings``: its state hooks, and in supervised mode the MCP tools
    allowed without asking (``permissions.allow``, as ``mcp__<server>__<tool>``)."""
    settings: dict[str, Any] = {}
    if request.state_hook:
        settings["hooks"] = state_hooks(request.state_hook, bool(request.prompt))
    allowed = [f"mcp__{server}__{tool}" for server, tools in request.preapproved_tools.items()
               for tool in tools]
    if allowed and request.permission is Permission.SUPERVISED:
        settings["permissions"] = {"allow": allowed}
    return settings


def state_hooks(hook: Sequence[str], has_prompt: bool) -> dict[str, Any]:
    """The ``hooks`` setting that runs ``hook`` (exec form: no shell) on each event
    of :data:`STATE_OF_HOOK` (``SessionStart`` only without a prompt: with one the
    agent starts working), ``Notification`` and ``PermissionRequest``."""
    command = {"type": "command", "command": hook[0], "args": list(hook[1:]),
               "timeout": HOOK_TIMEOUT_S}
    events = [*STATE_OF_HOOK, "Notification", "PermissionRequest"]
    if has_prompt:
        events.remove("SessionStart")
    return {event: [{"hooks": [command]}] for event in events}


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
        raise InvalidInputError(
            N_("invalid conversation id for {provider}: '{conversation_id}'"),
            details={"provider": "claude", "conversation_id": conversation_id},
            provider="claude",
            conversation_id=conversation_id,
        ) from None


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = ClaudeDriver()
