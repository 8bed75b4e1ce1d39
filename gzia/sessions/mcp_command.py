"""The command an agent starts gz-ia's MCP server with (``gz-ia mcp``), handed to it
in the session's MCP configuration (:mod:`gzia.sessions.mcp_wiring`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def server_command(no_mcp: bool = False) -> list[str] | None:
    """How the agent starts this same gz-ia: the running pyz, else the installed script,
    else ``python -m gzia``; ``None`` with ``--no-mcp``."""
    from gzia.update.apply import running_pyz

    if no_mcp:
        return None
    pyz = running_pyz()
    if pyz is not None:
        return [sys.executable, str(pyz)]
    script = Path(sys.argv[0]).absolute() if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "gz-ia" and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "gzia"]
