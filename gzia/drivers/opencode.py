"""OpenCode (``opencode``): checked against ``opencode --help`` of 1.18.33 (docs/drivers.md).

The prompt goes in ``--prompt=<text>`` (a positional argument is a project path). Permission
levels use the ``--agent plan`` agent, ``--auto`` and the ``OPENCODE_PERMISSION`` override;
MCP servers reach it through ``OPENCODE_CONFIG_CONTENT``, so no file in the worktree changes.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from gzia.contract import InvalidInputError, Permission
from gzia.drivers.base import (
    AGENT_FLUSH_GRACE_MS,
    STATE_HOOKS,
    ExecutableDriver,
    LaunchRequest,
    QuitKeys,
    StatePath,
    checked_conversation_id,
)
from gzia.drivers.transcripts import opencode_conversation_since, opencode_state
from gzia.i18n import N_, gettext

PERMISSION_ENV = "OPENCODE_PERMISSION"
CONFIG_CONTENT_ENV = "OPENCODE_CONFIG_CONTENT"
PERMISSION_RULES: dict[Permission, dict[str, str] | None] = {
    Permission.READONLY: {"edit": "deny", "bash": "deny"},
    Permission.SUPERVISED: {"edit": "ask", "bash": "ask"},
    Permission.AUTONOMOUS: None,
}


class OpenCodeDriver(ExecutableDriver):
    id: ClassVar[str] = "opencode"
    display_name: ClassVar[str] = "OpenCode (opencode)"
    binary: ClassVar[str] = "opencode"
    mcp_support: ClassVar[str] = "env"
    updates_off_env: ClassVar[dict[str, str]] = {"OPENCODE_DISABLE_AUTOUPDATE": "true"}
    quit_keys: ClassVar[QuitKeys] = QuitKeys((b"\x03", b"\x03"), pause_s=0.5)
    """Its app-exit key: at an empty prompt one Ctrl+C quits (exit 0); with a prompt typed,
    the first clears it and the second quits."""
    state_method: ClassVar[str] = STATE_HOOKS
    kill_grace_ms: ClassVar[int | None] = AGENT_FLUSH_GRACE_MS  # docs/drivers.md, "Stopping"
    quit_signals: ClassVar[frozenset[int]] = frozenset({signal.SIGINT})  # its Ctrl+C quit
    sandbox_hosts: ClassVar[tuple[str, ...]] = ("api.anthropic.com", "api.openai.com",
                                                 "opencode.ai")

    def sandbox_state(self, env: Mapping[str, str]) -> tuple[StatePath, ...]:
        return tuple(StatePath(path) for path in opencode_state(env))

    def install_hint(self) -> str:
        return gettext("curl -fsSL https://opencode.ai/install | bash")

    def arguments(self, request: LaunchRequest) -> list[str]:
        argv: list[str] = []
        if request.permission is Permission.READONLY:
            argv += ["--agent", "plan"]
        elif request.permission is Permission.AUTONOMOUS:
            argv.append("--auto")
        if request.resume:
            argv += self._resume(request.conversation_id)
        if request.prompt:
            argv.append(f"--prompt={request.prompt}")
        return argv

    def environment(self, request: LaunchRequest) -> dict[str, str]:
        env = super().environment(request)
        rules = PERMISSION_RULES[request.permission]
        if rules is not None:
            env[PERMISSION_ENV] = json.dumps(_with_mcp_rules(rules, request),
                                             separators=(",", ":"))
        if request.mcp_config is not None:
            inline = env.get(CONFIG_CONTENT_ENV)
            env[CONFIG_CONTENT_ENV] = _config_with_mcp(inline, request.mcp_config)
        if request.state_plugin is not None:
            env[CONFIG_CONTENT_ENV] = _config_with_plugin(env.get(CONFIG_CONTENT_ENV),
                                                          request.state_plugin)
        return env

    def state_plugin_source(self, hook: Sequence[str]) -> str:
        """An opencode plugin (an ES module) that runs ``hook`` for each state event, with
        the event and its time (``at``: reports may finish out of order) as JSON on stdin
        (no shell)."""
        return STATE_PLUGIN.replace("__HOOK__", json.dumps(list(hook))).replace(
            "__TYPES__", json.dumps(sorted(STATE_OF_EVENT)))

    def hook_state(self, payload: Mapping[str, Any]) -> tuple[str, str | None] | None:
        """The state an opencode event reports (``type`` and ``properties``)."""
        kind, properties = payload.get("type"), payload.get("properties")
        details = properties if isinstance(properties, dict) else {}
        if kind == "session.status":
            status = details.get("status")
            busy = isinstance(status, dict) and status.get("type") != "idle"
            return ("working" if busy else "idle"), None
        if kind == "permission.asked":
            what = " ".join(str(p) for p in [details.get("permission"),
                                             *(details.get("patterns") or [])] if p)
            return "waiting", f"permission: {what}" if what else None
        found = STATE_OF_EVENT.get(kind) if isinstance(kind, str) else None
        return (found, None) if found is not None else None

    def conversation_after_exit(
        self, workdir: Path, env: Mapping[str, str], since: float
    ) -> str | None:
        """opencode names its session itself: the one of ``workdir`` updated since the run
        started (epoch seconds), read from its database once opencode has exited."""
        return opencode_conversation_since(env, workdir, int(since * 1000))

    def _resume(self, conversation_id: str | None) -> list[str]:
        if conversation_id is None:
            return ["--continue"]
        return [f"--session={checked_conversation_id(self.id, conversation_id)}"]


def _with_mcp_rules(rules: dict[str, str], request: LaunchRequest) -> dict[str, str]:
    """In supervised mode, each pre-approved server's tools ask, but the pre-approved ones
    (``<server>_<tool>``, opencode's name for an MCP tool) are allowed: opencode takes the
    last rule that matches, so the tools come after their server's wildcard."""
    if request.permission is not Permission.SUPERVISED:
        return rules
    rules = dict(rules)
    for server, tools in request.preapproved_tools.items():
        if tools:
            rules[f"{server}_*"] = "ask"
            rules.update({f"{server}_{tool}": "allow" for tool in tools})
    return rules


def _config_with_mcp(existing: str | None, mcp_config: Path) -> str:
    """The user's inline config (if any) plus the servers of an ``mcpServers`` file."""
    try:
        config = _json_object(existing) if existing else {}
    except ValueError:
        config = {}  # opencode itself would reject it; ours must still reach the agent
    servers = _read_servers(mcp_config)
    mcp = dict(config.get("mcp") or {})
    for name, server in servers.items():
        mcp[name] = _opencode_server(server)
    config["mcp"] = mcp
    return json.dumps(config, separators=(",", ":"))


def _config_with_plugin(existing: str | None, plugin: Path) -> str:
    """The inline config with gz-ia's state plugin added to its ``plugin`` list."""
    try:
        config = _json_object(existing) if existing else {}
    except ValueError:
        config = {}
    plugins = config.get("plugin")
    config["plugin"] = [*(plugins if isinstance(plugins, list) else []), plugin.as_uri()]
    return json.dumps(config, separators=(",", ":"))


STATE_OF_EVENT = {"session.status": "working", "session.idle": "idle",
                  "permission.asked": "waiting", "permission.replied": "working",
                  "question.asked": "waiting", "question.replied": "working",
                  "question.rejected": "working"}
"""The opencode events the plugin reports (``session.status`` and ``permission.asked``
are read further: :meth:`OpenCodeDriver.hook_state`)."""

STATE_PLUGIN = """\
// Written by gz-ia for one session: reports this opencode's state to it.
import { spawn } from "node:child_process";

const HOOK = __HOOK__;
const TYPES = new Set(__TYPES__);

function report(event) {
  try {
    const child = spawn(HOOK[0], HOOK.slice(1), { stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    const p = event.properties || {};
    const properties = { status: p.status, permission: p.permission, patterns: p.patterns };
    child.stdin.end(JSON.stringify({ type: event.type, properties, at: Date.now() / 1000 }));
  } catch {}
}

export const GzIaState = async () => ({
  event: async ({ event }) => {
    if (event && TYPES.has(event.type)) report(event);
  },
});
"""


def _read_servers(mcp_config: Path) -> dict[str, dict[str, Any]]:
    try:
        servers = _json_object(mcp_config.read_text(encoding="utf-8")).get("mcpServers", {})
        if not isinstance(servers, dict) or not all(
            isinstance(s, dict) and ("url" in s or "command" in s) for s in servers.values()
        ):
            raise ValueError("'mcpServers' must map names to servers with a command or url")
    except (OSError, ValueError) as exc:
        raise InvalidInputError(
            N_("cannot use the MCP configuration {path}: {detail}"),
            details={"path": str(mcp_config)},
            path=str(mcp_config),
            detail=str(exc),
        ) from exc
    return servers


def _opencode_server(server: dict[str, Any]) -> dict[str, Any]:
    """An ``mcpServers`` entry (Claude Code format) as an OpenCode ``mcp`` entry."""
    if "url" in server:
        remote: dict[str, Any] = {"type": "remote", "url": server["url"], "enabled": True}
        if server.get("headers"):
            remote["headers"] = server["headers"]
        return remote
    local: dict[str, Any] = {
        "type": "local",
        "command": [server["command"], *server.get("args", [])],
        "enabled": True,
    }
    if server.get("env"):
        local["environment"] = server["env"]
    return local


def _json_object(text: str) -> dict[str, Any]:
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = OpenCodeDriver()
