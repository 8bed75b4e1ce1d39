"""Pytest fixtures for the shared fakes. Use them from a conftest with
``from tests.fakes.fixtures import *  # noqa: F403``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.forgejo import ForgejoFake, start_forgejo
from tests.fakes.http import FakeServer, Request, Response
from tests.fakes.http import dead_url as _dead_url
from tests.fakes.nexus import NexusFake, start_nexus
from tests.fakes.proxy import ProxyProcess
from tests.fakes.pulls import PullsFake, start_pulls
from tests.fakes.signing import MinisignKey

__all__ = ["dead_url", "forgejo", "forgejo_pulls", "forgejo_tls", "github_pulls", "http_proxy",
           "minisign_key", "nexus", "nexus_tls", "origin", "tls_ca", "tls_ca_file"]


class StaticFake:
    """Serves ``files`` (path → bytes) with GET/HEAD; anything else is 404."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.server: FakeServer | None = None

    def __call__(self, request: Request) -> Response:
        data = self.files.get(request.path)
        if data is None:
            return Response(404, b"not found")
        return Response(200, data, {"Content-Type": "application/octet-stream"})


@pytest.fixture(scope="session")
def tls_ca() -> Any:
    import trustme

    return trustme.CA()


@pytest.fixture(scope="session")
def tls_ca_file(tls_ca: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    tls_ca.cert_pem.write_to_path(str(path))
    return path


def _serve(fake: Any, server: FakeServer) -> Iterator[Any]:
    try:
        yield fake
    finally:
        server.stop()


@pytest.fixture
def nexus() -> Iterator[NexusFake]:
    yield from _serve(*start_nexus())


@pytest.fixture
def nexus_tls(tls_ca: Any) -> Iterator[NexusFake]:
    yield from _serve(*start_nexus(tls_ca))


@pytest.fixture
def forgejo() -> Iterator[ForgejoFake]:
    yield from _serve(*start_forgejo())


@pytest.fixture
def forgejo_tls(tls_ca: Any) -> Iterator[ForgejoFake]:
    yield from _serve(*start_forgejo(tls_ca))


@pytest.fixture
def forgejo_pulls() -> Iterator[PullsFake]:
    """Forgejo's pull-request API (tests/fakes/pulls.py)."""
    yield from _serve(*start_pulls("forgejo"))


@pytest.fixture
def github_pulls() -> Iterator[PullsFake]:
    """GitHub's pull-request API (tests/fakes/pulls.py)."""
    yield from _serve(*start_pulls("github"))


@pytest.fixture
def origin() -> Iterator[StaticFake]:
    fake = StaticFake()
    fake.server = FakeServer(fake).start()
    yield from _serve(fake, fake.server)


@pytest.fixture
def dead_url() -> str:
    return _dead_url()


@pytest.fixture(scope="session")
def http_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProxyProcess]:
    proxy = ProxyProcess(tmp_path_factory.mktemp("proxy")).start()
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture(scope="session")
def minisign_key(tmp_path_factory: pytest.TempPathFactory) -> MinisignKey:
    return MinisignKey.generate(tmp_path_factory.mktemp("minisign"))
