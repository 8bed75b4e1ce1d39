"""``gz-ia mcp --session <id>``: Orchy, the MCP server of one session, over stdio.

The session is checked before anything is served (a bad id is the usual CLI error and
exit code); after that stdout belongs to the protocol and problems go to stderr.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT

app = typer.Typer(add_completion=False)


@app.command(help="Serve a session's tools to its agent over MCP (stdio).")
def mcp(
    session: Annotated[str, typer.Option("--session", metavar="ID",
                                         help="Session id (or unique prefix).")],
    directory: Annotated[str | None, typer.Option("-d", "--dir",
                                                  help="Project directory.")] = None,
    allow_agent_get: Annotated[bool, typer.Option(
        "--allow-agent-get", help="Offer worktree_get (merge a session) to the agent.")] = False,
    tool_timeout: Annotated[float, typer.Option(
        "--tool-timeout",
        help="Seconds a tool call may take (0.001 to 86400).")] = DEFAULT_TIMEOUT,
    max_failures: Annotated[int, typer.Option(
        "--max-failures",
        help="Consecutive failures that make a tool DEAD (1 to 1000).")] = DEFAULT_MAX_FAILURES,
) -> None:
    from gzia.cli.mcp_serving import serve_session

    serve_session(session, directory, allow_agent_get=allow_agent_get, timeout=tool_timeout,
                  max_failures=max_failures)
