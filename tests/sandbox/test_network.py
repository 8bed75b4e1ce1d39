"""A sandbox's network: ``none`` and ``allowlist`` (until its proxy exists) have no way
out, not even to the host's loopback; ``host`` is the machine's."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.sandbox.conftest import report_of

Gz = Callable[..., Result]

CONNECT = """
import socket
def connect():
    socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), timeout=5).close()
attempt("connect", connect)
report()
"""


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
def test_a_sandbox_reaches_the_hosts_loopback_only_with_the_host_network(
        gz: Gz, probe: Any, repo: Path, listener: int, network: str) -> None:
    probe("connects", CONNECT)
    env = {"PORT": str(listener), "GZ_SANDBOX_NETWORK": network}

    result = gz("--json", "exec", "--sandbox", "--", "connects", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert record["sandbox"]["network"] == network
    assert report_of(repo, record) == {"connect": REACHED[network]}
