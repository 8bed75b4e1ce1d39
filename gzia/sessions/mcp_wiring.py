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
from collections.abc import Sequence
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.sessions.project import Project
from gzia.sessions.workspace import ensure_excluded

SERVER_NAME = "gz-ia"


def mcp_config_path(project: Project, session_id: str) -> Path:
    return project.harness_dir / "mcp" / f"{session_id}.json"


def server_entry(project: Project, session_id: str,
                 server_command: Sequence[str]) -> dict[str, object]:
    return {"command": server_command[0],
            "args": [*server_command[1:], "mcp", "--session", session_id,
                     "-d", str(project.root)]}


def write_mcp_config(project: Project, session_id: str, server_command: Sequence[str]) -> Path:
    if project.is_git:
        ensure_excluded(project)
    path = mcp_config_path(project, session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"mcpServers": {SERVER_NAME: server_entry(project, session_id, server_command)}}
    write_atomic(path, (json.dumps(document, indent=2) + "\n").encode(), mode=0o600)
    return path
