"""MCP servers of a session's profiles, as the ``mcpServers`` document agents read.

One document serves every agent: Claude Code takes it as ``--mcp-config <file>``, the
opencode driver turns it into ``OPENCODE_CONFIG_CONTENT``, pi and agy read it from their
worktree file (:mod:`gzia.profiles.layout`). The session's own server (``gz-ia``) is
added beside them by :func:`merged_document`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESERVED_SERVER = "gz-ia"
"""The name of the session's own MCP server: no profile may take it."""


def merged_document(profile_servers: Mapping[str, Any],
                    own: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``{"mcpServers": {...}}``: the profiles' servers, plus gz-ia's own when given."""
    servers = dict(profile_servers)
    if own:
        servers.update(own)
    return {"mcpServers": servers}
