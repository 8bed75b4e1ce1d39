"""A small real HTTP(S) server on 127.0.0.1 with request recording and fault injection.

``FakeServer(app)`` serves ``app(request) -> Response`` from a thread. It records every
request (``server.requests``), can serve HTTPS with a trustme CA, can go down and come back
on the same port, and injects faults by path prefix (see :meth:`FakeServer.inject`).
"""

from __future__ import annotations

import base64
import hashlib
import socket
import ssl
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

CHUNK = 256 * 1024


@dataclass
class Request:
    method: str
    target: str  # path plus query, as sent
    headers: dict[str, str]  # lower-case names
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> dict[str, list[str]]:
        return parse_qs(urlsplit(self.target).query, keep_blank_values=True)

    def arg(self, name: str, default: str | None = None) -> str | None:
        values = self.query.get(name)
        return values[0] if values else default

    def basic_auth(self) -> tuple[str, str] | None:
        value = self.headers.get("authorization", "")
        if not value.lower().startswith("basic "):
            return None
        user, _, password = base64.b64decode(value[6:]).decode().partition(":")
        return user, password


@dataclass
class Response:
    status: int = 200
    body: bytes | Path = b""
    headers: dict[str, str] = field(default_factory=dict)
    reason: str | None = None

    @property
    def length(self) -> int:
        return self.body.stat().st_size if isinstance(self.body, Path) else len(self.body)


def json_response(text: str, status: int = 200, **headers: str) -> Response:
    return Response(
        status, text.encode(), {"Content-Type": "application/json;charset=utf-8", **headers}
    )


@dataclass
class Fault:
    """One injected fault. ``kind`` is one of:

    * ``status``: answer ``status`` (default 503) with ``body`` instead of the real response;
    * ``slow``: sleep ``delay`` seconds before answering;
    * ``trickle``: send the real body ``chunk`` bytes at a time, ``delay`` seconds apart;
    * ``bad_json``: answer 200 with a broken JSON body;
    * ``truncate``: send the real headers, then only ``keep`` bytes of the body, then close;
    * ``corrupt``: flip one byte of the real body (at ``offset``, default the middle);
    * ``redirect``: answer ``code`` (default 302) to ``location`` (+ the request target when
      ``append_target``);
    * ``drop``: close the connection without answering.
    """

    kind: str
    path: str = ""
    method: str | None = None
    times: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def matches(self, request: Request) -> bool:
        if self.times is not None and self.times <= 0:
            return False
        if self.method is not None and request.method != self.method:
            return False
        return request.path.startswith(self.path)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self) -> None:
        headers = {k.lower(): v for k, v in self.headers.items()}
        request = Request(self.command, self.path, headers, self._read_body())
        self.server.owner.requests.append(request)
        self.server.owner.serve(self, request)

    # http.server dispatches on do_<METHOD> names
    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _handle  # noqa: N815

    def send(self, response: Response, *, keep: int | None = None, flip: int | None = None,
             pace: tuple[int, float] | None = None) -> None:
        self.send_response(response.status, response.reason)
        length = response.length
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(length))
        if keep is not None:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command == "HEAD":
            return
        self._write_body(response.body, length if keep is None else keep, flip, pace)

    def _write_body(self, body: bytes | Path, limit: int, flip: int | None,
                    pace: tuple[int, float] | None = None) -> None:
        offset = 0
        for chunk in _chunks(body, pace[0] if pace else CHUNK):
            if pace is not None:
                time.sleep(pace[1])
            piece = chunk[: max(0, limit - offset)]
            if flip is not None and offset <= flip < offset + len(piece):
                at = flip - offset
                piece = piece[:at] + bytes([piece[at] ^ 0xFF]) + piece[at + 1 :]
            try:
                self.wfile.write(piece)
            except (BrokenPipeError, ConnectionResetError):
                return
            offset += len(piece)
            if offset >= limit:
                break


def _chunks(body: bytes | Path, size: int = CHUNK) -> Any:
    if isinstance(body, bytes):
        for start in range(0, len(body), size):
            yield body[start : start + size]
        return
    with body.open("rb") as stream:
        while chunk := stream.read(size):
            yield chunk


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    owner: FakeServer
    tls: ssl.SSLContext | None = None

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (a kept-alive connection reset when gz-ia's client closes)
        is counted, not printed: socketserver prints to ``sys.stderr``, which a test running
        gz-ia in this process has redirected into that command's output. Anything else goes
        to the real stderr, never into a command's."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | ssl.SSLEOFError):
            self.owner.hangups += 1
            return
        traceback.print_exc(file=sys.__stderr__)

    def finish_request(self, request: Any, client_address: Any) -> None:
        if self.tls is not None:
            try:
                request = self.tls.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return
        super().finish_request(request, client_address)


App = Callable[[Request], Response]


class FakeServer:
    """A real HTTP server on 127.0.0.1 serving ``app``; HTTPS when ``tls_ca`` is given."""

    def __init__(self, app: App, *, tls_ca: Any = None, port: int = 0) -> None:
        self.app = app
        self.tls_ca = tls_ca
        self.requests: list[Request] = []
        self.faults: list[Fault] = []
        self.hangups = 0  # connections the client reset or closed mid-request
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # lifecycle -------------------------------------------------------------------------
    def start(self) -> FakeServer:
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.owner = self
        if self.tls_ca is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            self.tls_ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
            server.tls = context
        self._port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def go_down(self) -> None:
        """Stop listening: connections to :attr:`url` are refused until :meth:`come_up`."""
        self.stop()

    def come_up(self) -> None:
        self.start()

    @property
    def port(self) -> int:
        return self._port

    @property
    def url(self) -> str:
        scheme = "https" if self.tls_ca is not None else "http"
        return f"{scheme}://127.0.0.1:{self._port}"

    # faults and records -----------------------------------------------------------------
    def inject(
        self, kind: str, path: str = "", *, method: str | None = None, times: int | None = None,
        **params: Any,
    ) -> Fault:
        fault = Fault(kind, path, method, times, params)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def requests_to(self, prefix: str) -> list[Request]:
        return [r for r in self.requests if r.path.startswith(prefix)]

    # serving ---------------------------------------------------------------------------
    def serve(self, handler: _Handler, request: Request) -> None:
        fault = next((f for f in self.faults if f.matches(request)), None)
        if fault is not None and fault.times is not None:
            fault.times -= 1
        if fault is None:
            handler.send(self.app(request))
            return
        self._serve_fault(handler, request, fault)

    def _serve_fault(self, handler: _Handler, request: Request, fault: Fault) -> None:
        p = fault.params
        if fault.kind == "slow":
            time.sleep(p.get("delay", 5.0))
            handler.send(self.app(request))
        elif fault.kind == "status":
            body = p.get("body", b"")
            handler.send(Response(p.get("status", 503), body.encode() if isinstance(body, str)
                                  else body, dict(p.get("headers", {}))))
        elif fault.kind == "bad_json":
            handler.send(json_response(p.get("body", '{"items" : [ {"downloadUrl" : ')))
        elif fault.kind == "truncate":
            response = self.app(request)
            handler.send(response, keep=p.get("keep", response.length // 2))
        elif fault.kind == "trickle":
            handler.send(self.app(request), pace=(p.get("chunk", 16384), p.get("delay", 0.05)))
        elif fault.kind == "corrupt":
            response = self.app(request)
            handler.send(response, flip=p.get("offset", response.length // 2))
        elif fault.kind == "redirect":
            location = p["location"] + (request.target if p.get("append_target") else "")
            handler.send(Response(p.get("code", 302), b"", {"Location": location}))
        elif fault.kind == "drop":
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
        else:
            raise ValueError(f"unknown fault kind {fault.kind!r}")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def dead_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
