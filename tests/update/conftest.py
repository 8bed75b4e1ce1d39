"""Fixtures of the update tests: the shared fakes, a stand-in installed zipapp, releases."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.releases import make_release, make_standin_pyz, standin_pyz_bytes
from tests.fakes.signing import MinisignKey

INSTALLED = "1.0.0"


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """The installed ``gz-ia.pyz`` (a stand-in at version 1.0.0) that ``update`` replaces."""
    folder = tmp_path / "bin"
    folder.mkdir()
    return make_standin_pyz(folder / "gz-ia.pyz", INSTALLED)


def read_terminal(master: int) -> str:
    """Everything written to a PTY until its last writer closes it (then its master is
    closed)."""
    import os

    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return b"".join(chunks).decode(errors="replace")


def previous_of(target: Path) -> Path:
    """Where update keeps the file it replaced: hidden beside it (``.gz-ia.pyz.previous``),
    never a command on PATH."""
    return target.with_name(f".{target.name}.previous")


def pyz_reports(path: Path) -> str:
    """What ``<path> --version`` prints, run as a real process."""
    done = subprocess.run([sys.executable, str(path), "--version"], capture_output=True,
                          text=True, timeout=30, check=False)
    return done.stdout.strip()


@pytest.fixture
def releases(tmp_path: Path, minisign_key: MinisignKey) -> Callable[..., dict[str, bytes]]:
    """``releases(version, payload=None, key=None)``: the signed file set of a release."""

    def build(version: str, payload: bytes | None = None, key: MinisignKey | None = None,
              **options: Any) -> dict[str, bytes]:
        data = payload if payload is not None else standin_pyz_bytes(version)
        return make_release(tmp_path / "releases", version, data, key or minisign_key,
                            **options)

    return build


@pytest.fixture
def keys_env(minisign_key: MinisignKey) -> dict[str, str]:
    return {"GZ_UPDATE_PUBLIC_KEYS": minisign_key.public_line}


def nexus_env(nexus: NexusFake, **filters: str) -> dict[str, str]:
    return {"GZ_NEXUS_SEARCH_URL": nexus.search_url(**filters)}


def forgejo_env(forgejo: ForgejoFake) -> dict[str, str]:
    return {"GZ_FORGEJO_API_URL": forgejo.tags_url()}


@pytest.fixture
def update_cli(cli: Callable[..., Result], target: Path, keys_env: dict[str, str],
               monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run gz-ia in-process as if started from ``target`` at version 1.0.0."""

    def run(*args: str, env: dict[str, str] | None = None, installed: str = INSTALLED,
            argv0: Path | None = None) -> Result:
        import gzia._version

        monkeypatch.setattr(sys, "argv", [str(argv0 or target)])
        monkeypatch.setattr(gzia._version, "__version__", installed)
        return cli(*args, env={**keys_env, **(env or {})})

    return run


@pytest.fixture
def signed(tmp_path: Path, minisign_key: MinisignKey) -> Callable[..., tuple[bytes, bytes]]:
    """``signed(document_or_bytes, key=None)``: a channel manifest and its signature."""
    from tests.fakes.manifests import sign_manifest

    def sign(document: dict[str, Any] | bytes,
             key: MinisignKey | None = None) -> tuple[bytes, bytes]:
        return sign_manifest(tmp_path / "manifests", document, key or minisign_key)

    return sign


@pytest.fixture
def three_releases(nexus: NexusFake, releases: Callable[..., dict[str, bytes]]) -> None:
    """Releases 1.5.0, 2.0.0 and 3.0.0 on Nexus."""
    for version in ("1.5.0", "2.0.0", "3.0.0"):
        nexus.publish(releases(version), version)
