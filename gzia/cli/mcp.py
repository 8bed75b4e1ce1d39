"""``gz-ia mcp --session <id>``: Orchy, the MCP server of one session, over stdio.

The session is checked before anything is served (a bad id is the usual CLI error and
exit code); after that stdout belongs to the protocol and problems go to stderr.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)

NoMcp = Annotated[bool, typer.Option(
    "--no-mcp", help="Do not hand the session's MCP server (gz-ia mcp) to the agent.")]


def server_command(no_mcp: bool = False) -> list[str] | None:
    """How the agent starts this same gz-ia: the running pyz, else the installed script,
    else ``python -m gzia``; ``None`` with ``--no-mcp``."""
    from gzia.selfexec import running_pyz

    if no_mcp:
        return None
    pyz = running_pyz()
    if pyz is not None:
        return [sys.executable, str(pyz)]
    script = Path(sys.argv[0]).absolute() if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "gz-ia" and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "gzia"]


@app.command(help="Serve a session's tools to its agent over MCP (stdio).")
def mcp(
    session: Annotated[str, typer.Option("--session", metavar="ID",
                                         help="Session id (or unique prefix).")],
    directory: Annotated[str | None, typer.Option("-d", "--dir",
                                                  help="Project directory.")] = None,
    allow_agent_get: Annotated[bool, typer.Option(
        "--allow-agent-get", help="Offer worktree_get (merge a session) to the agent.")] = False,
    tool_timeout: Annotated[float, typer.Option(
        "--tool-timeout", help="Seconds a tool call may take (0.001 to 86400).")] = 30.0,
    max_failures: Annotated[int, typer.Option(
        "--max-failures", help="Consecutive failures that make a tool DEAD (1 to 1000).")] = 5,
) -> None:
    from gzia.cli.mcp_serving import serve_session

    serve_session(session, directory, allow_agent_get=allow_agent_get, timeout=tool_timeout,
                  max_failures=max_failures)
