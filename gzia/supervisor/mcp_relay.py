"""The MCP relay: what an agent starts as gz-ia's MCP server while the run's owner serves
it warm (``gz-ia __relay__ <socket> <server argv...>``; gzia.sessions.warm_orchy).

It moves bytes between its stdin/stdout and the owner's server socket, and nothing else:
it imports only the standard library's ``os``, ``select``, ``socket`` and ``stat``, so
the agent's connection costs the start of a Python and no SDK. The protocol is the
server's: the relay reads no message.

- The socket is not there, or not this user's (the owner is gone: a resumed session's
  old configuration, a run that ended): the relay becomes the server itself, running
  ``<server argv...>`` (``gz-ia mcp --session <id> -d <project>``, over stdio as without
  an owner) in its place.
- Its client ends its input: the relay passes the end on and still relays every answer
  the server owes, until the server closes the connection.
- The server goes away (the owner stopped it, or died): the relay ends, and its client
  reads the end of its input, never a wait without end.
"""

from __future__ import annotations

import os
import select
import socket

from gzia.supervisor.socket_trust import is_trusted_socket

CHUNK = 65536


def relay_main(args: list[str]) -> int:
    """``args``: the socket, then the argv of the stdio server to become without it."""
    if len(args) < 2:
        os.write(2, b"gz-ia __relay__: usage: __relay__ SOCKET SERVER-ARGV...\n")
        return 2
    connection = connect(args[0])
    if connection is None:
        os.execv(args[1], args[1:])  # noqa: S606 - gz-ia's own argv, from its config
    return relay(connection, 0, 1)


def connect(path: str) -> socket.socket | None:
    """A connection to the warm server at ``path``, or None when there is none to trust."""
    if not is_trusted_socket(path):
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    return connection


def relay(connection: socket.socket, fd_in: int, fd_out: int) -> int:
    """Move bytes both ways until the server closes the connection: 0 once the client
    had ended its input, 1 when the server went away first (said on stderr)."""
    client_open, server = True, connection.fileno()
    while True:
        ready = select.select([server, fd_in] if client_open else [server], [], [])[0]
        if client_open and fd_in in ready:
            client_open = _to_server(fd_in, connection)
        if server in ready and not _to_client(connection, fd_out):
            break
    if client_open:
        os.write(2, b"gz-ia __relay__: the session's MCP server went away\n")
        return 1
    return 0


def _to_server(fd_in: int, connection: socket.socket) -> bool:
    """One read of the client's input passed on; False once it ended (passed on too)."""
    try:
        data = os.read(fd_in, CHUNK)
    except OSError:
        data = b""
    try:
        if data:
            connection.sendall(data)
            return True
        connection.shutdown(socket.SHUT_WR)
    except OSError:  # the server is gone: the next read of it says so
        pass
    return False


def _to_client(connection: socket.socket, fd_out: int) -> bool:
    """One read of the server passed on; False once the server ended or the client left."""
    try:
        data = connection.recv(CHUNK)
        view = memoryview(data)
        while view:
            view = view[os.write(fd_out, view):]
    except OSError:
        return False
    return bool(data)
