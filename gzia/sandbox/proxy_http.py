"""The HTTP a sandbox's proxy speaks: a bounded request head, its parts, the replies it
makes itself, and the way to a target (direct, or through the user's own proxy)."""

from __future__ import annotations

import base64
import socket
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from gzia.sandbox.hosts import Target, split_authority

MAX_HEAD_BYTES = 32 << 10
"""The most a request's (or an upstream proxy's answer's) head may hold."""
CONNECT_TIMEOUT_S = 30.0
HOP_BY_HOP = frozenset({"proxy-authorization", "proxy-connection", "connection", "keep-alive",
                        "te", "trailer", "upgrade"})
"""Headers for the proxy, not for the server (a plain request goes on without them)."""


class Refusal(Exception):
    """A request the proxy answers itself with ``status`` (and ``reason`` as its body)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


@dataclass(frozen=True)
class Request:
    method: str
    target: Target
    tunnel: bool
    """CONNECT: the client speaks to the target through the proxy (TLS, mostly)."""
    path: str = ""
    """A plain request's path and query (origin form)."""
    headers: tuple[str, ...] = ()
    """A plain request's header lines, without the hop-by-hop ones."""

    def forward_head(self, absolute: bool, proxy_auth: str | None) -> bytes:
        """The plain request as the server (or, ``absolute``, the upstream proxy) reads it."""
        target = f"http://{self.target.authority}{self.path}" if absolute else self.path
        lines = [f"{self.method} {target} HTTP/1.1", *self.headers, "Connection: close"]
        if proxy_auth is not None:
            lines.append(f"Proxy-Authorization: {proxy_auth}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    """The head (up to its blank line) and whatever came after it."""
    data = bytearray()
    while True:
        end = data.find(b"\r\n\r\n")
        if end > MAX_HEAD_BYTES or (end < 0 and len(data) > MAX_HEAD_BYTES):
            raise Refusal(431, "request header too large")
        if end >= 0:
            return bytes(data[:end]), bytes(data[end + 4:])
        chunk = sock.recv(8192)
        if not chunk:
            raise Refusal(400, "connection closed before the end of the request header")
        data += chunk


def parse_request(head: bytes) -> Request:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise Refusal(400, "not an HTTP/1.x request")
    method, target = parts[0], parts[1]
    if method == "CONNECT":
        host, port = split_authority(target)
        if not host or not port:
            raise Refusal(400, "CONNECT needs host:port")
        return Request(method, Target(host, port), tunnel=True)
    url = urlsplit(target)
    if url.scheme.lower() != "http" or not url.hostname:
        raise Refusal(400, "a plain request through the proxy needs an absolute http:// URL "
                           "(https: use CONNECT)")
    host, port = split_authority(url.netloc.rpartition("@")[2], 80)
    if not port:
        raise Refusal(400, "invalid port")
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    headers = tuple(line for line in lines[1:]
                    if line and line.split(":", 1)[0].strip().lower() not in HOP_BY_HOP)
    return Request(method, Target(host, port), tunnel=False, path=path, headers=headers)


def reply(status: int, reason: str) -> bytes:
    """A complete reply the proxy makes itself (its text for the person reading the agent)."""
    body = f"gz-ia sandbox proxy: {reason}\n".encode()
    phrase = {200: "Connection established", 400: "Bad Request", 403: "Forbidden",
              431: "Request Header Fields Too Large", 502: "Bad Gateway",
              503: "Service Unavailable"}.get(status, "Error")
    if status == 200:
        return b"HTTP/1.1 200 Connection established\r\n\r\n"
    return (f"HTTP/1.1 {status} {phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


@dataclass(frozen=True)
class Upstream:
    """The user's own proxy (``http://[user:password@]host:port``)."""

    host: str
    port: int
    auth: str | None

    @classmethod
    def parse(cls, url: str) -> Upstream:
        parts = urlsplit(url)
        if parts.scheme.lower() != "http" or not parts.hostname:
            raise Refusal(502, "the upstream proxy must be an http:// URL")
        try:
            port = parts.port or 80
        except ValueError:
            raise Refusal(502, "the upstream proxy's port is invalid") from None
        auth = None
        if parts.username:
            pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
            auth = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
        return cls(parts.hostname, port, auth)


def connect(target: Target) -> socket.socket:
    try:
        return socket.create_connection((target.host, target.port), timeout=CONNECT_TIMEOUT_S)
    except OSError as exc:
        raise Refusal(502, f"cannot reach {target.authority}: "
                           f"{exc.strerror or type(exc).__name__}") from None


def tunnel_through(upstream: Upstream, target: Target) -> tuple[socket.socket, bytes]:
    """A tunnel to ``target`` through ``upstream`` (its CONNECT, with its credentials), and
    any bytes the upstream sent past its answer."""
    sock = connect(Target(upstream.host, upstream.port))
    try:
        lines = [f"CONNECT {target.authority} HTTP/1.1", f"Host: {target.authority}"]
        if upstream.auth is not None:
            lines.append(f"Proxy-Authorization: {upstream.auth}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head, rest = read_head(sock)
        status = head.split(b" ", 2)[1] if head.count(b" ") >= 1 else b""
        if status == b"407":
            raise Refusal(502, "the upstream proxy refused its credentials (HTTP 407); check "
                               "the user and password in HTTPS_PROXY")
        if not status.startswith(b"2"):
            raise Refusal(502, f"the upstream proxy refused {target.authority} "
                               f"(HTTP {status.decode('latin-1', 'replace')})")
    except (Refusal, OSError):
        sock.close()
        raise
    return sock, rest
