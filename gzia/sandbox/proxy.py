"""The only way out of a sandbox in ``allowlist`` mode: an HTTP(S) proxy that the session's
owner (the foreground gz-ia or the background holder) runs outside the sandbox.

It serves a listening socket that lives in the sandbox's own network namespace
(:mod:`gzia.sandbox.network` receives it), so the agent reaches it on ``127.0.0.1`` inside
while every connection it makes starts from the owner's network. It allows ``CONNECT``
(a tunnel: TLS stays end to end) and plain ``http://`` requests only to the hosts of its
:class:`~gzia.sandbox.hosts.Allowlist`; any other is answered ``403`` and reported to
``on_denied`` (the session's events). When the user has a proxy of their own, it is
chained to (``upstream_for``, with Basic credentials from its URL).

Bounded: a request's head (:data:`~gzia.sandbox.proxy_http.MAX_HEAD_BYTES`, within
:data:`HEAD_TIMEOUT_S`), the connections served at once (:data:`MAX_CONNECTIONS`: one
more is answered ``503``), a connection idle for :data:`IDLE_TIMEOUT_S` is closed. A
thread per direction of each connection; :meth:`AllowlistProxy.close` ends them all.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

from gzia.sandbox.hosts import Allowlist, Target
from gzia.sandbox.proxy_http import (
    Refusal,
    Request,
    Upstream,
    connect,
    parse_request,
    read_head,
    reply,
    tunnel_through,
)

HEAD_TIMEOUT_S = 30.0
IDLE_TIMEOUT_S = 900.0
"""A tunnel quiet this long is closed (a model's streamed answer is never that quiet)."""
MAX_CONNECTIONS = 256
RELAY_CHUNK = 256 << 10
ACCEPT_WAKEUP_S = 0.25
LINGER_S, LINGER_CHUNKS = 1.0, 4


@dataclass(frozen=True)
class Denied:
    """A connection the proxy refused: where to, how (``CONNECT`` or the method)."""

    host: str
    port: int
    method: str


UpstreamFor = Callable[[str, Target], "str | None"]
"""The user's proxy for a scheme (``https`` for tunnels, ``http``) and target, if any."""


class AllowlistProxy:
    def __init__(self, allowlist: Allowlist, upstream_for: UpstreamFor,
                 on_denied: Callable[[Denied], None]) -> None:
        self.allowlist = allowlist
        self.upstream_for = upstream_for
        self.on_denied = on_denied
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._stop = threading.Event()
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def serve(self, listener: socket.socket) -> None:
        """Accept on ``listener`` (it is the proxy's now) until :meth:`close`."""
        listener.settimeout(ACCEPT_WAKEUP_S)
        self._track(listener)
        thread = threading.Thread(target=self._accept_loop, args=(listener,), daemon=True,
                                  name="sandbox-proxy")
        self._threads.append(thread)
        thread.start()

    def close(self) -> None:
        """Stop accepting and end every connection."""
        self._stop.set()
        with self._lock:
            live = list(self._open)
        for sock in live:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        for thread in self._threads:
            thread.join(timeout=5)

    def _accept_loop(self, listener: socket.socket) -> None:
        try:
            while not self._stop.is_set():
                try:
                    client, _ = listener.accept()
                except TimeoutError:
                    continue
                except OSError:
                    if self._stop.wait(ACCEPT_WAKEUP_S):
                        break
                    continue
                self._start(client)
        finally:
            self._forget(listener)

    def _start(self, client: socket.socket) -> None:
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                client.sendall(reply(503, f"more than {MAX_CONNECTIONS} connections at once"))
            client.close()
            return
        self._track(client)
        threading.Thread(target=self._serve_one, args=(client,), daemon=True).start()

    def _serve_one(self, client: socket.socket) -> None:
        server: socket.socket | None = None
        try:
            client.settimeout(HEAD_TIMEOUT_S)
            head, rest = read_head(client)
            request = parse_request(head)
            server, early = self._open_to(request, rest)
            self._track(server)
            client.sendall(early)
            self._relay(client, server)
        except Refusal as refusal:
            with contextlib.suppress(OSError):
                client.sendall(reply(refusal.status, refusal.reason))
                _linger(client)
        except OSError:
            pass  # the client or the server went away: nothing to tell anyone
        finally:
            for sock in (client, server):
                if sock is not None:
                    self._forget(sock)
            self._slots.release()

    def _open_to(self, request: Request, rest: bytes) -> tuple[socket.socket, bytes]:
        """The connection to the request's target (its first bytes sent), and what goes
        back to the client before the relay starts."""
        target = request.target
        if not self.allowlist.allows(target):
            self.on_denied(Denied(target.host, target.port, request.method))
            raise Refusal(403, f"{target.authority} is not allowed in this sandbox (add the "
                               f"host to sandbox_allow_hosts)")
        proxy_url = self.upstream_for("https" if request.tunnel else "http", target)
        upstream = Upstream.parse(proxy_url) if proxy_url else None
        if request.tunnel:
            if upstream is None:
                server, early = connect(target), b""
            else:
                server, early = tunnel_through(upstream, target)
            server.sendall(rest)
            return server, reply(200, "") + early
        if upstream is None:
            server = connect(target)
            server.sendall(request.forward_head(absolute=False, proxy_auth=None) + rest)
        else:
            server = connect(Target(upstream.host, upstream.port))
            server.sendall(request.forward_head(absolute=True, proxy_auth=upstream.auth) + rest)
        return server, b""

    def _relay(self, client: socket.socket, server: socket.socket) -> None:
        for sock in (client, server):
            sock.settimeout(IDLE_TIMEOUT_S)
        back = threading.Thread(target=_pipe, args=(server, client), daemon=True)
        back.start()
        _pipe(client, server)
        back.join()

    def _track(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.add(sock)
        if self._stop.is_set():
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _forget(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.discard(sock)
        sock.close()


def _linger(client: socket.socket) -> None:
    """After a reply the client may still be sending: read a little of it (bounded) so
    that closing does not reset the connection before the client has read the reply."""
    client.shutdown(socket.SHUT_WR)
    client.settimeout(LINGER_S)
    for _ in range(LINGER_CHUNKS):
        if not client.recv(RELAY_CHUNK):
            return


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    """Copy until ``source`` ends (then end ``sink``'s sending side) or either fails."""
    buffer = bytearray(RELAY_CHUNK)
    view = memoryview(buffer)
    try:
        while True:
            count = source.recv_into(buffer)
            if not count:
                break
            sink.sendall(view[:count])
    except OSError:  # a timeout too: both directions end
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
