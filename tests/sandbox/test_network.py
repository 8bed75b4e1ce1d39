"""A sandbox's network: ``none`` has no way out, not even to the host's loopback;
``allowlist`` reaches only the allowed hosts, through the proxy its owner runs outside
(plain HTTP and CONNECT, chained to the user's own proxy with its credentials), and each
refused host is an event; ``host`` is the machine's."""

from __future__ import annotations

import http.server
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import wait_final, wait_until
from tests.conftest import Result
from tests.fakes.proxy import ProxyProcess
from tests.sandbox.conftest import report_of
from tests.sandbox.test_process import processes_with

Gz = Callable[..., Result]

CONNECT = """
import socket
def connect():
    socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), timeout=5).close()
attempt("connect", connect)
report()
"""

PROXY_CLIENT = """
import socket, urllib.parse
proxy = urllib.parse.urlsplit(os.environ["HTTPS_PROXY"])
port = os.environ["PORT"]

def exchange(sock, data):
    sock.sendall(data)
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer

def summary(answer):
    head, _, body = answer.partition(b"\\r\\n\\r\\n")
    return head.split(b"\\r\\n")[0].decode() + " | " + body.decode().strip()

def to_proxy():
    return socket.create_connection((proxy.hostname, proxy.port), timeout=20)

def plain(host):
    request = f"GET http://{host}:{port}/hello HTTP/1.1\\r\\nHost: {host}:{port}\\r\\n\\r\\n"
    return summary(exchange(to_proxy(), request.encode()))

def tunnel(host):
    sock = to_proxy()
    sock.sendall(f"CONNECT {host}:{port} HTTP/1.1\\r\\nHost: {host}:{port}\\r\\n\\r\\n".encode())
    head = b""
    while b"\\r\\n\\r\\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    status = head.split(b"\\r\\n")[0].decode()
    if " 200 " not in status:
        return status
    return status + " || " + summary(exchange(sock, b"GET /hello HTTP/1.0\\r\\n\\r\\n"))
"""

THROUGH_PROXY = PROXY_CLIENT + """
results["plain"] = plain("127.0.0.1")
results["tunnel"] = tunnel("127.0.0.1")
results["tunnel_refused"] = tunnel("localhost")
results["proxy_variables"] = sorted(
    f"{name}={value}" for name, value in os.environ.items()
    if name.lower().endswith("_proxy") and name.lower() != "no_proxy"
    and value != os.environ["HTTPS_PROXY"])
report()
"""

OK_STATUS = "HTTP/1.0 200 OK | hello from the host"
ESTABLISHED = "HTTP/1.1 200 Connection established || " + OK_STATUS


class Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"hello from the host"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web() -> Iterator[int]:
    """An HTTP server on the host's loopback (HTTP/1.0: it closes after each answer)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP server on the host's loopback that accepts and closes connections."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                server.accept()[0].close()
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(timeout=5)
    server.close()


REACHED = {"none": "Connection refused", "allowlist": "Connection refused", "host": "ok"}


@pytest.mark.parametrize("network", sorted(REACHED))
def test_a_sandbox_reaches_the_hosts_loopback_directly_only_with_the_host_network(
        gz: Gz, probe: Any, repo: Path, listener: int, network: str) -> None:
    probe("connects", CONNECT)
    env = {"PORT": str(listener), "GZ_SANDBOX_NETWORK": network}

    result = gz("--json", "exec", "--sandbox", "--", "connects", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert record["sandbox"]["network"] == network
    assert report_of(repo, record) == {"connect": REACHED[network]}


def refusals(gz: Gz, repo: Path, session: str) -> list[dict[str, Any]]:
    events = gz("--json", "session", "logs", session, cwd=repo).json["data"]["events"]
    return [{key: event[key] for key in ("action", "status", "host", "port", "method")}
            for event in events if event.get("type") == "sandbox_refused"]


def expected_refusals(port: int) -> list[dict[str, Any]]:
    return [{"action": f"sandbox refused a connection to localhost:{port}",
             "status": "FAILED", "host": "localhost", "port": port, "method": "CONNECT"}]


def no_proxy_env() -> dict[str, str]:
    """The run's environment without a proxy of the user's (the test machine may have one)."""
    return dict.fromkeys(("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY",
                          "all_proxy", "NO_PROXY", "no_proxy"), "")


def test_the_proxy_lets_the_agent_reach_only_the_allowed_hosts_and_logs_the_others(
        gz: Gz, probe: Any, repo: Path, web: int) -> None:
    probe("fetches", THROUGH_PROXY)
    env = {**no_proxy_env(), "PORT": str(web), "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1"}

    result = gz("--json", "exec", "--sandbox", "--", "fetches", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert record["sandbox"]["network"] == "allowlist"
    assert record["sandbox"]["hosts"] == ["127.0.0.1"]
    assert report_of(repo, record) == {
        "plain": OK_STATUS, "tunnel": ESTABLISHED,
        "tunnel_refused": "HTTP/1.1 403 Forbidden",
        "proxy_variables": ["NODE_USE_ENV_PROXY=1"]}
    assert refusals(gz, repo, record["id"]) == expected_refusals(web)


def test_the_refusal_event_speaks_spanish(gz: Gz, probe: Any, repo: Path, web: int) -> None:
    probe("fetches", THROUGH_PROXY)
    env = {**no_proxy_env(), "PORT": str(web), "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1",
           "GZ_LANG": "es"}

    result = gz("--json", "exec", "--sandbox", "--", "fetches", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    [refused] = refusals(gz, repo, result.json["data"]["id"])
    assert refused["action"] == f"el sandbox rechazó una conexión a localhost:{web}"


def test_the_proxy_goes_through_the_users_own_proxy_with_its_credentials(
        gz: Gz, probe: Any, repo: Path, web: int, http_proxy: ProxyProcess) -> None:
    probe("fetches", THROUGH_PROXY)
    mark = http_proxy.mark()
    env = {**no_proxy_env(), "PORT": str(web), "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1",
           "HTTPS_PROXY": http_proxy.url, "https_proxy": http_proxy.url,
           "http_proxy": http_proxy.url}

    result = gz("--json", "exec", "--sandbox", "--", "fetches", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    assert report_of(repo, result.json["data"]) == {
        "plain": OK_STATUS, "tunnel": ESTABLISHED,
        "tunnel_refused": "HTTP/1.1 403 Forbidden",
        "proxy_variables": ["NODE_USE_ENV_PROXY=1"]}
    log = http_proxy.log_since(mark)
    assert f"CONNECT 127.0.0.1:{web}" in log
    assert f"GET 127.0.0.1:{web}/hello" in log
    assert "ProxyAuthenticationFailed" not in log


def test_wrong_credentials_for_the_users_proxy_are_a_clear_answer(
        gz: Gz, probe: Any, repo: Path, web: int, http_proxy: ProxyProcess) -> None:
    probe("fetches", THROUGH_PROXY)
    env = {**no_proxy_env(), "PORT": str(web), "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1",
           "https_proxy": http_proxy.url_with("proxyuser", "wrong")}

    result = gz("--json", "exec", "--sandbox", "--", "fetches", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    assert report_of(repo, result.json["data"])["tunnel"] == "HTTP/1.1 502 Bad Gateway"


SERVING = """
import time
print("proxy is " + os.environ["HTTPS_PROXY"], flush=True)
results["plain"] = plain("127.0.0.1")
results["tunnel_refused"] = tunnel("localhost")
report()
print("fetched", flush=True)
while True:
    time.sleep(1)
"""


def test_a_background_sandbox_has_its_proxy_and_a_kill_leaves_nothing(
        gz: Gz, probe: Any, repo: Path, web: int) -> None:
    marker = f"fetcher-{uuid.uuid4().hex[:8]}"
    probe(marker, PROXY_CLIENT + SERVING)
    env = {**no_proxy_env(), "PORT": str(web), "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1"}
    result = gz("--json", "exec", "-b", "--sandbox", "--", marker, cwd=repo, env=env)
    assert result.exit_code == 0, result.stderr
    session = result.json["data"]["id"]
    runtime = Path(result.json["data"]["holder"]["socket"]).parent

    wait_until(lambda: "fetched" in gz("session", "output", session, cwd=repo).stdout,
               what="the agent to fetch through its proxy")
    assert report_of(repo, result.json["data"]) == {
        "plain": OK_STATUS, "tunnel_refused": "HTTP/1.1 403 Forbidden"}
    assert refusals(gz, repo, session) == expected_refusals(web)
    assert list(runtime.glob(f"{session}-*.net"))  # the handshake, until the run ends
    assert gz("--json", "session", "kill", session, cwd=repo).exit_code == 0

    assert wait_final(repo, session)["status"] == "killed"
    wait_until(lambda: not processes_with(marker), what="every process of the sandbox to end")
    wait_until(lambda: not list(runtime.glob(f"{session}-*.net")),
               what="the holder (and its proxy) to end")
