"""The command an agent starts gz-ia's MCP server with (``gz-ia mcp``), handed to it
in the session's MCP configuration (:mod:`gzia.sessions.mcp_wiring`)."""

from __future__ import annotations

from gzia.selfexec import gzia_argv


def server_command(no_mcp: bool = False) -> list[str] | None:
    """How the agent starts this same gz-ia (:func:`gzia.selfexec.gzia_argv`: the running
    zipapp, else ``python -P -m gzia``, so a ``gzia/`` directory in the agent's worktree is
    never the code served); ``None`` with ``--no-mcp``."""
    return None if no_mcp else gzia_argv()
