"""The MCP configuration that hands a session's Orchy server to its agent.

The file lives in the project's ``.harness/mcp/<id>.json`` (``mcpServers`` format, mode
0600): outside the session's worktree, in a directory git is told to ignore, so nothing
injected can reach the user's branch. The server is started through the same gz-ia that
started the agent (``server_command``: the pyz run by this Python, or the installed
entry point), with ``-d`` naming the project, so it finds the session wherever the
agent's current directory is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.profiles.mcp import RESERVED_SERVER
from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import ensure_excluded

SERVER_NAME = RESERVED_SERVER  # the one name a profile's server may not take


def mcp_config_path(project: Project, session_id: str) -> Path:
    return SessionStore(project).mcp_config_path(session_id)


def server_entry(project: Project, session_id: str,
                 server_command: Sequence[str]) -> dict[str, object]:
    return {"command": server_command[0],
            "args": [*server_command[1:], *server_args(project, session_id)]}


def server_args(project: Project, session_id: str) -> tuple[str, ...]:
    """What the agent runs gz-ia with for its Orchy server."""
    return "mcp", "--session", session_id, "-d", str(project.root)


def session_servers(project: Project, session_id: str, server_command: Sequence[str] | None,
                    profile_servers: Mapping[str, Any]) -> dict[str, Any]:
    """The servers a session's agent gets: its profiles' servers, then gz-ia's own
    (``SERVER_NAME`` is reserved: a profile cannot replace it)."""
    servers = dict(profile_servers)
    if server_command:
        servers[SERVER_NAME] = server_entry(project, session_id, server_command)
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
