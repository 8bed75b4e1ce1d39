"""A run's warm server: ``gz-ia __orchy__ <session> <project> <fd>``.

The owner of a run (the foreground gz-ia, or the holder of a background run:
gzia.sessions.warm_orchy) binds a private Unix socket and starts this before it starts
the agent, handing it the listening socket as file descriptor ``<fd>``, a pipe as stdin
and another as stdout. The server builds the session's kernel, imports the SDK, says
``ready`` on stdout (then points fd 1 at stderr, the server's log), and serves every
connection (the agent's relay: gzia.supervisor.mcp_relay) exactly as ``gz-ia mcp`` serves
stdio, until the owner's end of stdin closes: when the run ends, or when the owner dies.
"""

from __future__ import annotations

import logging
import os
import socket
import sys

from gzia._version import __version__
from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT
from gzia.orchy.service import build_kernel

READY = b"ready\n"


def listen_main(args: list[str]) -> int:
    """Serve until the owner goes; 2 for arguments it never sends, 1 when the session
    cannot be served (said on stderr: the owner then hands the agent the stdio form)."""
    if len(args) != 3 or not args[2].isdigit():
        sys.stderr.write("gz-ia __orchy__: usage: __orchy__ SESSION PROJECT FD\n")
        return 2
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="gz-ia mcp: %(levelname)s %(message)s")
    session, project, fd = args[0], args[1], int(args[2])
    listener = socket.socket(fileno=fd)
    try:
        kernel = build_kernel(session, project, allow_agent_get=False,
                              timeout=DEFAULT_TIMEOUT, max_failures=DEFAULT_MAX_FAILURES)
    except Exception as exc:  # a session the owner just made: nothing a person can fix here
        sys.stderr.write(f"gz-ia __orchy__: {exc}\n")
        return 1
    # lazy: the MCP SDK (most of a second) only once the session is good, as gz-ia mcp
    from gzia.orchy.server import serve_listener

    serve_listener(kernel, __version__, listener, on_ready=_say_ready)
    return 0


def _say_ready() -> None:
    """Tell the owner, then point fd 1 at the log: a stray print never reaches the pipe."""
    os.write(1, READY)
    os.dup2(2, 1)
