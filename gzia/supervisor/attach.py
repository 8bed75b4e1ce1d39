"""The attacher's side of ``session attach``: relay a terminal to a holder and back.

The holder's stream (the agent's output) goes to stdout; what is typed goes to the
agent as ``input`` requests, except the detach key (``Ctrl-]`` by default), which ends
the relay and leaves the run going. On a terminal, stdin is in raw mode (so Ctrl+C
reaches the agent as a byte) and the PTY follows the terminal's size (``SIGWINCH``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

from gzia.contract import Problem, error_from
from gzia.supervisor.control import Request, decode_bytes, encode_bytes, read_reply, send_request
from gzia.supervisor.terminal import raw_mode

DETACHED = "detached"
ENDED = "ended"


@dataclass
class AttachStreams:
    stdin_fd: int
    stdout_fd: int
    detach_byte: int


def _refused(error: object) -> Exception:
    try:
        return error_from(Problem.from_json(error))  # busy: LOCKED, retryable
    except ValueError:
        return ConnectionResetError(str(error))


def attach(sock: socket.socket, streams: AttachStreams) -> str:
    """Relay until the user detaches (:data:`DETACHED`) or the run ends (:data:`ENDED`)."""
    send_request(sock, {"op": "attach"})
    reply, rest = read_reply(sock)
    if not reply.get("ok"):
        raise _refused(reply.get("error"))
    sock.setblocking(False)
    terminal = os.isatty(streams.stdin_fd)
    with contextlib.ExitStack() as stack:
        if terminal:  # raw before the screen is redrawn: what the terminal answers to it,
            # or the user types, reaches the agent as typed, not echoed and turned to lines
            stack.enter_context(raw_mode(streams.stdin_fd))
            winch = stack.enter_context(_window_changes())
        else:
            winch = None
        _write(streams.stdout_fd, decode_bytes(reply.get("recent", "")) + rest)
        if terminal:
            _send_size(sock, streams.stdin_fd)
        return _relay(sock, streams, winch, terminal)
    raise AssertionError("unreachable")  # pragma: no cover - for type checkers


def _relay(sock: socket.socket, streams: AttachStreams, winch: _Flag | None,
           terminal: bool) -> str:
    stdin_open = True
    while True:
        readable = [sock.fileno()] + ([streams.stdin_fd] if stdin_open else [])
        with contextlib.suppress(InterruptedError):
            ready, _, _ = select.select(readable, [], [], 0.25)
            if winch is not None and winch.take():
                _send_size(sock, streams.stdin_fd)
            if sock.fileno() in ready and not _pump_output(sock, streams.stdout_fd):
                return ENDED
            if streams.stdin_fd in ready:
                data = os.read(streams.stdin_fd, 65536)
                if not data:
                    stdin_open = terminal  # a terminal never ends; a pipe may
                    continue
                before, found, _ = data.partition(bytes([streams.detach_byte]))
                if before:
                    _send(sock, {"op": "input", "data": encode_bytes(before)})
                if found:
                    return DETACHED


def _pump_output(sock: socket.socket, stdout_fd: int) -> bool:
    try:
        data = sock.recv(65536)
    except BlockingIOError:
        return True
    except OSError:
        return False
    if not data:
        return False
    _write(stdout_fd, data)
    return True


def _send(sock: socket.socket, request: Request) -> None:
    sock.setblocking(True)
    try:
        send_request(sock, request)
    finally:
        sock.setblocking(False)


def _send_size(sock: socket.socket, fd: int) -> None:
    with contextlib.suppress(OSError):
        size = os.get_terminal_size(fd)
        _send(sock, {"op": "resize", "rows": size.lines, "cols": size.columns})


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class _Flag:
    def __init__(self) -> None:
        self.raised = False

    def set(self, _signum: int, _frame: FrameType | None) -> None:
        self.raised = True

    def take(self) -> bool:
        raised, self.raised = self.raised, False
        return raised


@contextlib.contextmanager
def _window_changes() -> Iterator[_Flag]:
    flag = _Flag()
    previous = signal.signal(signal.SIGWINCH, flag.set)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGWINCH, previous)
