"""The MCP configuration that hands a session's Orchy server to its agent.

The file lives in the project's ``.harness/mcp/<id>.json`` (``mcpServers`` format, mode
0600): outside the session's worktree, in a directory git is told to ignore, so nothing
injected can reach the user's branch. The server is started through the same gz-ia that
started the agent (``server_command``: the pyz run by this Python, or the installed
entry point), with ``-d`` naming the project, so it finds the session wherever the
agent's current directory is. When the run's owner serves the session warm
(gzia.sessions.warm_orchy), the agent starts the relay to that server instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.drivers.base import Driver
from gzia.profiles.mcp import RESERVED_SERVER
from gzia.selfexec import RELAY_ARG
from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import ensure_excluded

SERVER_NAME = RESERVED_SERVER  # the one name a profile's server may not take


def mcp_config_path(project: Project, session_id: str) -> Path:
    return SessionStore(project).mcp_config_path(session_id)


def server_entry(project: Project, session_id: str, server_command: Sequence[str],
                 warm_socket: Path | None = None) -> dict[str, object]:
    """``gz-ia mcp`` over stdio; with ``warm_socket``, the relay to the run's warm server
    (``gz-ia __relay__ <socket> <that same stdio argv>``: gzia.supervisor.mcp_relay),
    which becomes the stdio server when the socket is gone."""
    stdio = [*server_command, *server_args(project, session_id)]
    if warm_socket is None:
        return {"command": stdio[0], "args": stdio[1:]}
    return {"command": server_command[0],
            "args": [*server_command[1:], RELAY_ARG, str(warm_socket), *stdio]}


def server_args(project: Project, session_id: str) -> tuple[str, ...]:
    """What the agent runs gz-ia with for its Orchy server."""
    return "mcp", "--session", session_id, "-d", str(project.root)


def session_servers(project: Project, session_id: str, server_command: Sequence[str] | None,
                    profile_servers: Mapping[str, Any],
                    warm_socket: Path | None = None) -> dict[str, Any]:
    """The servers a session's agent gets: its profiles' servers, then gz-ia's own
    (``SERVER_NAME`` is reserved: a profile cannot replace it)."""
    servers = dict(profile_servers)
    if server_command:
        servers[SERVER_NAME] = server_entry(project, session_id, server_command, warm_socket)
    return servers


def write_mcp_config(project: Project, session_id: str, servers: Mapping[str, Any]) -> Path:
    """Write the session's ``mcpServers`` file (the one file every MCP-aware driver reads)."""
    if project.is_git:
        ensure_excluded(project)
    path = mcp_config_path(project, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"mcpServers": dict(servers)}
    write_atomic(path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode(),
                 mode=0o600)
    return path


def agent_mcp_config(store: SessionStore, session_id: str, driver: Driver,
                     server_command: Sequence[str] | None, profile_servers: Mapping[str, Any],
                     *, warm_socket: Path | None) -> Path | None:
    """One ``mcpServers`` file for an agent that reads one: the profiles' servers and
    the session's own Orchy (the relay to ``warm_socket`` when there is one)."""
    if driver.mcp_support == "none":
        return None
    project = store.project
    servers = session_servers(project, session_id, server_command, profile_servers, warm_socket)
    return write_mcp_config(project, session_id, servers) if servers else None


def preapproved(driver: Driver, server_command: Sequence[str] | None,
                tools: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """gz-ia's read-only ``tools`` by the server name the agent knows them under, when
    the agent gets gz-ia's server."""
    return {SERVER_NAME: tools} if tools and wires_orchy(driver, server_command) else {}


def wires_orchy(driver: Driver, server_command: Sequence[str] | None) -> bool:
    """The agent gets gz-ia's own server (its driver reads MCP configuration, and the
    run was not asked ``--no-mcp``)."""
    return driver.mcp_support != "none" and bool(server_command)
