"""The control socket of a background run: requests in, replies and output out.

Protocol: one JSON object per line in both directions. A request names its ``op``; the
reply is ``{"ok": true, ...}`` or ``{"ok": false, "error": <problem>}`` (the contract's
problem shape: code, message, retryable, hint, details; :func:`gzia.contract.error_from`).
After a successful ``attach`` the connection becomes a stream: the holder sends the agent's
raw output, the client keeps sending request lines (``input``, ``resize``). Nothing blocks the
holder: every socket is non-blocking, and an attacher that does not read (more than
:data:`MAX_CLIENT_BACKLOG` unsent) is disconnected rather than buffered without end.
"""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gzia.contract import ErrorCode, Problem
from gzia.supervisor.degraded import HolderWarning, Warn

Request = dict[str, Any]
Reply = dict[str, Any]
Handler = Callable[[Request], Reply]

MAX_CLIENT_BACKLOG = 4 << 20
MAX_REQUEST_LINE = 8 << 20
RECV_CHUNK = 65536
MAX_CONNECTIONS = 128
"""Connections a holder serves at once; one more is answered ``busy`` and closed."""
ACCEPT_PAUSE_S = 0.1
"""How long a holder out of descriptors stops accepting before it tries again."""
BUSY_REPLY = {"ok": False, "error": Problem(
    ErrorCode.LOCKED, f"busy: the holder serves {MAX_CONNECTIONS} connections already",
    retryable=True, hint="try again").to_json()}


def refusal(code: ErrorCode, message: str) -> Reply:
    """A reply refusing a request: its error in the contract's problem shape."""
    return {"ok": False, "error": Problem(code, message).to_json()}


def encode_bytes(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decode_bytes(text: object) -> bytes:
    if not isinstance(text, str):
        raise ValueError("data must be base64 text")
    return base64.b64decode(text.encode("ascii"), validate=True)


class Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.streaming = False
        self.closed = False

    def fileno(self) -> int:
        return self.sock.fileno()

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        self.outbox += data
        if len(self.outbox) > MAX_CLIENT_BACKLOG:
            self.close()

    def reply(self, reply: Reply) -> None:
        self.send(json.dumps(reply).encode("utf-8") + b"\n")

    def flush(self) -> None:
        try:
            sent = self.sock.send(self.outbox)
        except BlockingIOError:
            return
        except OSError:
            self.close()
            return
        del self.outbox[:sent]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(OSError):
                self.sock.close()


class ControlServer:
    """The holder's side: accept, read request lines, dispatch, write replies."""

    def __init__(self, listener: socket.socket, path: Path, handlers: Mapping[str, Handler],
                 warn: Warn | None = None):
        self.listener = listener
        self.path = path
        self.handlers = dict(handlers)
        self.connections: list[Connection] = []
        self._warn = warn or (lambda _code, _message: None)
        self._accept_after = 0.0

    def readable(self) -> list[int]:
        accepting = time.monotonic() >= self._accept_after
        return [*([self.listener.fileno()] if accepting else []),
                *(c.fileno() for c in self.connections)]

    def writable(self) -> list[int]:
        return [c.fileno() for c in self.connections if c.outbox]

    def handle(self, ready_r: list[int], ready_w: list[int]) -> None:
        readable, writable = set(ready_r), set(ready_w)
        if self.listener.fileno() in readable:
            self._accept()
        for conn in list(self.connections):
            if conn.fileno() in writable:
                conn.flush()
            if not conn.closed and conn.fileno() in readable:
                self._receive(conn)
        self.connections = [c for c in self.connections if not c.closed]

    def broadcast(self, data: bytes) -> None:
        for conn in self.connections:
            if conn.streaming:
                conn.send(data)

    def attached(self) -> int:
        return sum(1 for c in self.connections if c.streaming)

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # EMFILE, ENFILE, ENOBUFS: out of descriptors for now
                self._accept_after = time.monotonic() + ACCEPT_PAUSE_S
                self._warn(HolderWarning.OUT_OF_DESCRIPTORS, f"cannot accept connections: {exc}")
                return
            sock.setblocking(False)
            if len(self.connections) >= MAX_CONNECTIONS:
                self._refuse(sock)
            else:
                self.connections.append(Connection(sock))

    def _refuse(self, sock: socket.socket) -> None:
        self._warn(HolderWarning.CONNECTIONS_REFUSED,
                   f"more than {MAX_CONNECTIONS} connections at once: "
                   "further ones are answered busy and closed")
        with contextlib.suppress(OSError):
            sock.send(json.dumps(BUSY_REPLY).encode("utf-8") + b"\n")
        sock.close()

    def _receive(self, conn: Connection) -> None:
        try:
            data = conn.sock.recv(RECV_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data or len(conn.inbox) + len(data) > MAX_REQUEST_LINE:
            conn.close()
            return
        conn.inbox += data
        while b"\n" in conn.inbox:
            line, _, rest = bytes(conn.inbox).partition(b"\n")
            conn.inbox = bytearray(rest)
            self._dispatch(conn, line)

    def _dispatch(self, conn: Connection, line: bytes) -> None:
        was_streaming = conn.streaming
        reply = self._answer(line)
        if reply.pop("stream", False):
            conn.streaming = True
        if not was_streaming:  # a stream carries output only
            try:
                conn.reply(reply)
            except (TypeError, ValueError) as exc:  # a reply that is not JSON
                self._warn(HolderWarning.HANDLER_FAILED,
                           f"a reply could not be sent: {exc!r}"[:500])
                conn.reply(refusal(ErrorCode.INTERNAL, "internal error"))
        conn.flush()

    def _answer(self, line: bytes) -> Reply:
        try:
            request = json.loads(line)
            return dict(self.handlers[request["op"]](request))
        except (ValueError, KeyError, TypeError, RecursionError) as exc:  # a bad request
            return refusal(ErrorCode.INVALID_INPUT, f"bad request: {exc!r}"[:500])
        except Exception as exc:  # a handler's own failure never stops the holder
            self._warn(HolderWarning.HANDLER_FAILED, f"a request failed: {exc!r}"[:500])
            return refusal(ErrorCode.INTERNAL, f"internal error: {exc!r}"[:500])

    def close(self) -> None:
        """Flush what can be sent at once, then close everything and remove the socket."""
        for conn in self.connections:
            conn.flush()
            conn.close()
        self.connections = []
        with contextlib.suppress(OSError):
            self.listener.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


def connect(path: Path, timeout: float) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        raise
    return sock


def call(path: Path, request: Request, timeout: float = 10.0) -> Reply:
    """One request, one reply. OSError when no holder answers."""
    with connect(path, timeout) as sock:
        send_request(sock, request)
        return read_reply(sock)[0]


def send_request(sock: socket.socket, request: Request) -> None:
    sock.sendall(json.dumps(request).encode("utf-8") + b"\n")


def read_reply(sock: socket.socket) -> tuple[Reply, bytes]:
    """The first line the holder sends, parsed, and what came after it (stream bytes)."""
    received = bytearray()
    while b"\n" not in received:
        chunk = sock.recv(RECV_CHUNK)
        if not chunk:
            raise ConnectionResetError("the holder closed the connection")
        received += chunk
    line, _, rest = bytes(received).partition(b"\n")
    reply = json.loads(line)
    if not isinstance(reply, dict):
        raise ConnectionResetError("the holder sent no reply")
    return reply, rest
