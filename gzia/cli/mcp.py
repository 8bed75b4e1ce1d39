"""``gz-ia mcp --session <id>``: Orchy, the MCP server of one session, over stdio.

The session is checked before anything is served (a bad id is the usual CLI error and
exit code); after that stdout belongs to the protocol and problems go to stderr.
"""

from __future__ import annotations

import click

from gzia.cli.command import command
from gzia.cli.run_options import project_dir
from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT


@command("mcp", help="Serve a session's tools to its agent over MCP (stdio).")
@click.option("--session", required=True, metavar="ID", help="Session id (or unique prefix).")
@project_dir
@click.option("--allow-agent-get", is_flag=True,
              help="Offer worktree_get (merge a session) to the agent.")
@click.option("--tool-timeout", type=float, default=DEFAULT_TIMEOUT,
              help="Seconds a tool call may take (0.001 to 86400).")
@click.option("--max-failures", type=int, default=DEFAULT_MAX_FAILURES,
              help="Consecutive failures that make a tool DEAD (1 to 1000).")
def app(session: str, directory: str | None, allow_agent_get: bool,
        tool_timeout: float, max_failures: int) -> None:
    from gzia.cli.mcp_serving import serve_session

    serve_session(session, directory, allow_agent_get=allow_agent_get, timeout=tool_timeout,
                  max_failures=max_failures)
