"""The sandbox's proxy on its own (no sandbox): what it allows, how it bounds a request, and
that closing it ends every connection."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from gzia.sandbox.hosts import Allowlist, Target
from gzia.sandbox.proxy import AllowlistProxy, Denied
from gzia.sandbox.proxy_http import MAX_HEAD_BYTES


@pytest.mark.parametrize(("entry", "target", "allowed"), [
    ("api.example.com", Target("API.Example.com.", 443), True),
    ("api.example.com", Target("example.com", 443), False),
    ("api.example.com:443", Target("api.example.com", 80), False),
    ("*.example.com", Target("a.b.example.com", 1), True),
    (".example.com", Target("example.com", 1), False),
    ("[::1]:8080", Target("::1", 8080), True),
    ("127.0.0.1", Target("127.0.0.2", 80), False),
    ("host:notaport", Target("host", 80), False),
])
def test_allowlist_entries(entry: str, target: Target, allowed: bool) -> None:
    assert Allowlist([entry]).allows(target) is allowed


@pytest.fixture
def proxy() -> Iterator[tuple[AllowlistProxy, int, list[Denied]]]:
    denied: list[Denied] = []
    served = AllowlistProxy(Allowlist(["127.0.0.1"]), lambda scheme, target: None,
                            denied.append)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    served.serve(listener)
    yield served, port, denied
    served.close()


def ask(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def status(answer: bytes) -> str:
    return answer.split(b"\r\n")[0].decode()


@pytest.mark.parametrize(("request_head", "expected"), [
    (b"GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request"),
    (b"GET https://127.0.0.1/ HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request"),
    (b"CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request"),
    (b"hello\r\n\r\n", "HTTP/1.1 400 Bad Request"),
    (b"GET http://127.0.0.1/ HTTP/1.1\r\nX: " + b"a" * MAX_HEAD_BYTES + b"\r\n\r\n",
     "HTTP/1.1 431 Request Header Fields Too Large"),
    (b"CONNECT example.org:443 HTTP/1.1\r\n\r\n", "HTTP/1.1 403 Forbidden"),
], ids=["origin-form", "https-url", "no-port", "not-http", "huge-head", "not-allowed"])
def test_requests_the_proxy_answers_itself(
        proxy: tuple[AllowlistProxy, int, list[Denied]], request_head: bytes,
        expected: str) -> None:
    assert status(ask(proxy[1], request_head)) == expected


def test_a_refusal_is_reported_with_its_host_port_and_method(
        proxy: tuple[AllowlistProxy, int, list[Denied]]) -> None:
    ask(proxy[1], b"GET http://example.org:8080/x HTTP/1.1\r\nHost: example.org\r\n\r\n")
    assert proxy[2] == [Denied("example.org", 8080, "GET")]


def test_an_unreachable_allowed_host_is_a_bad_gateway(
        proxy: tuple[AllowlistProxy, int, list[Denied]]) -> None:
    unused = socket.create_server(("127.0.0.1", 0))
    port = unused.getsockname()[1]
    unused.close()
    answer = ask(proxy[1], f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
    assert status(answer) == "HTTP/1.1 502 Bad Gateway"
    assert b"cannot reach 127.0.0.1:" in answer


def test_closing_the_proxy_ends_an_open_tunnel(
        proxy: tuple[AllowlistProxy, int, list[Denied]]) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    client = socket.create_connection(("127.0.0.1", proxy[1]), timeout=20)
    client.sendall(f"CONNECT 127.0.0.1:{server.getsockname()[1]} HTTP/1.1\r\n\r\n".encode())
    assert client.recv(100).startswith(b"HTTP/1.1 200")

    proxy[0].close()

    assert client.recv(100) == b""  # the tunnel ended, not left hanging
    client.close()
    server.close()
