"""A run's warm MCP server: started by the run's owner before the agent, stopped after.

The owner (the foreground gz-ia, or the holder of a background run) binds a private Unix
socket in the runtime directory (mode 0600, published only once it listens:
:func:`gzia.supervisor.runtime_dir.bind_private_socket`, as the control socket), starts
``gz-ia __orchy__`` (gzia.orchy.listen) with it, and waits until the server says it is
ready, so the agent's first connection (its relay, gzia.supervisor.mcp_relay) is answered
at once. The server's stdin is a pipe whose other end only the owner holds: when the run
ends the owner closes it, and when the owner dies the system does; either way the server
closes every connection and exits. The owner then removes the socket.

A server that is not ready in time, or fails, is stopped and its socket removed: the
relay then finds no socket and becomes ``gz-ia mcp`` over stdio, as without an owner.

The wait watches the owner's stop signals too (its :class:`SignalInbox`): a Ctrl+C or
SIGTERM while the server gets ready ends the start at once (no agent is started), the
server's process group is killed (it has served nobody) and its socket removed.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from gzia import proc
from gzia.contract import GzError
from gzia.selfexec import ORCHY_ARG, gzia_argv
from gzia.sessions.store import SessionStore
from gzia.supervisor.runtime_dir import bind_private_socket, new_socket_path
from gzia.supervisor.signals import SignalInbox

READY_TIMEOUT_S = 30.0
"""How long the owner waits for its server before it starts the agent without it."""
STOP_GRACE_S = 10.0
"""How long a stopped server has to shut its tools down before it is killed."""


@contextlib.contextmanager
def warm_orchy(store: SessionStore, session_id: str, sock: Path | None, cwd: Path,
               env: Mapping[str, str], *,
               inbox: SignalInbox | None = None) -> Iterator[bool]:
    """While inside: the session's server on ``sock`` (none when ``sock`` is None),
    started in ``cwd`` with the agent's environment ``env``; True while it serves, False
    when it could not start (the relay falls back to stdio). A stop signal noted in
    ``inbox`` while it gets ready is raised (:meth:`SignalInbox.raise_if_stopped`)."""
    if sock is None:
        yield False
        return
    server = _start(store, session_id, sock, cwd, env)
    try:
        ready = server is not None and _ready(server, inbox)
    except BaseException:
        if server is not None:
            _abandon(server, sock)
        raise
    if server is not None and not ready:
        _stop(server, sock)
        server = None
    try:
        yield ready
    finally:
        if server is not None:
            _stop(server, sock)


def _start(store: SessionStore, session_id: str, sock: Path, cwd: Path,
           env: Mapping[str, str]) -> subprocess.Popen[bytes] | None:
    try:
        listener = bind_private_socket(sock)
    except (OSError, GzError):
        return None
    try:
        listener.setblocking(True)
        log = _open_log(store.mcp_log_path(session_id))
        try:
            return proc.start(
                gzia_argv(ORCHY_ARG, session_id, str(store.project.root),
                          str(listener.fileno())),
                cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log, start_new_session=True, pass_fds=(listener.fileno(),))
        finally:
            os.close(log)
    except OSError:
        _remove(sock)
        return None
    finally:
        listener.close()  # the server holds its own copy


def _open_log(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)


def _ready(server: subprocess.Popen[bytes], inbox: SignalInbox | None) -> bool:
    """The server's ``ready`` line within :data:`READY_TIMEOUT_S`; a stop signal noted
    meanwhile is raised at once."""
    if server.stdout is None:  # pragma: no cover - stdout=PIPE always gives one
        return False
    fd, line = server.stdout.fileno(), b""
    watched = [fd] if inbox is None else [fd, inbox.read_fd]
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        readable = select.select(watched, [], [], remaining)[0] if remaining > 0 else []
        if not readable:
            return False
        if inbox is not None and inbox.read_fd in readable:
            inbox.drain()
            inbox.raise_if_stopped()
        if fd not in readable:
            continue
        chunk = os.read(fd, 64)
        if not chunk:
            return False
        line += chunk
    return line == b"ready\n"


def _stop(server: subprocess.Popen[bytes], path: Path) -> None:
    """End of input to the server, a grace to shut its tools down, then its group killed."""
    for pipe in (server.stdin, server.stdout):
        with contextlib.suppress(OSError):
            if pipe is not None:
                pipe.close()
    try:
        server.wait(STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    finally:
        _remove(path)


def _abandon(server: subprocess.Popen[bytes], path: Path) -> None:
    """A server that never said ready has served nobody: its group is killed now."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    _stop(server, path)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def relay_socket(session_id: str) -> Path | None:
    """A fresh socket path for a run's warm server, or None when the runtime directory
    cannot be used (the agent then starts ``gz-ia mcp`` over stdio)."""
    try:
        return new_socket_path(session_id)
    except GzError:
        return None
