"""Fixtures of the release tests: signing keys, small release directories, the release CLI.

Publishing tests use the shared fake registries (tests/fakes). Tests marked
``release_build`` build real artifacts with release/ and build/shiv.sh (see test_e2e.py).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from release import artifacts, minisign
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake

REPO = Path(__file__).resolve().parents[2]
NEXUS_USER, NEXUS_PASSWORD = "ci-publisher", "n3xus-S3cret-pw"
FORGEJO_TOKEN = "f0rgejo-t0ken-0123456789abcdef"
VERSION = "1.2.3"
PLATFORMS = ("linux-amd64", "linux-arm64")


@dataclass(frozen=True)
class KeyFiles:
    key: minisign.SecretKey
    secret: Path
    public: Path
    keys_dir: Path  # holds only ``public``: what a build would embed


def write_key(folder: Path, key: minisign.SecretKey | None = None) -> KeyFiles:
    key = key or minisign.generate_key()
    keys_dir = folder / "keys"
    keys_dir.mkdir(parents=True)
    secret, public = folder / "release.key", keys_dir / "release.pub"
    secret.write_text(key.to_text())
    public.write_text(key.public().to_text())
    return KeyFiles(key, secret, public, keys_dir)


@pytest.fixture
def release_key(tmp_path: Path) -> KeyFiles:
    return write_key(tmp_path / "key")


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)


RunRelease = Callable[..., Result]


@pytest.fixture
def run_release() -> RunRelease:
    """``run_release("sign", "--version", ..., env={...})``: release.cli.main in-process."""

    def run(*args: str | Path, env: Mapping[str, str] | None = None) -> Result:
        from release.cli import main

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args], env=dict(env or {}))
        return Result(code, out.getvalue(), err.getvalue())

    return run


def make_artifacts(folder: Path, version: str = VERSION) -> list[Path]:
    """Small stand-ins for the zipapps: publishing does not look inside them."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, name in enumerate(PLATFORMS):
        path = folder / artifacts.artifact_name(version, name)
        path.write_bytes(f"zipapp {version} {name}\n".encode() * (100 + number))
        paths.append(path)
    return paths


@pytest.fixture
def signed_release(tmp_path: Path, release_key: KeyFiles, run_release: RunRelease) -> Path:
    """A release directory for 1.2.3: two artifacts, SHA256SUMS and its signature."""
    folder = tmp_path / "dist"
    make_artifacts(folder)
    result = sign_release(
        run_release, folder, "--key-file", release_key.secret, "--keys-dir", release_key.keys_dir
    )
    assert result.exit_code == 0, result.stderr
    return folder


def publish_env(nexus: NexusFake, forgejo: ForgejoFake) -> dict[str, str]:
    """Fakes that require credentials, and the environment release/ reads them from."""
    nexus.users = {NEXUS_USER: NEXUS_PASSWORD}
    nexus.anonymous_read = False
    nexus.write_policy = "allow_once"
    forgejo.tokens = {FORGEJO_TOKEN: {"login": "release-bot", "write": True}}
    assert nexus.server is not None and forgejo.server is not None
    return {
        "GZ_RELEASE_NEXUS_URL": nexus.server.url,
        "GZ_RELEASE_NEXUS_REPOSITORY": "gz-ia",
        "GZ_RELEASE_NEXUS_USER": NEXUS_USER,
        "GZ_RELEASE_NEXUS_PASSWORD": NEXUS_PASSWORD,
        "GZ_RELEASE_FORGEJO_URL": forgejo.server.url,
        "GZ_RELEASE_FORGEJO_REPOSITORY": "ops/gz-ia",
        "GZ_RELEASE_FORGEJO_TOKEN": FORGEJO_TOKEN,
    }


def files_of(folder: Path, version: str = VERSION) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in artifacts.release_files(folder, version)}


AMD64, ARM64 = "gz-ia-1.2.3-linux-amd64.pyz", "gz-ia-1.2.3-linux-arm64.pyz"
ORDER = [AMD64, ARM64, "SHA256SUMS", "SHA256SUMS.minisig"]


def sign_release(
    run_release: RunRelease, folder: Path, *options: str | Path,
    env: Mapping[str, str] | None = None,
) -> Result:
    """``release.py sign`` of version 1.2.3 in ``folder``; ``options`` name keys and modes."""
    return run_release("sign", "--version", VERSION, "--dir", folder, *options, env=env)


def publish_to(
    target: str, run_release: RunRelease, folder: Path, key: KeyFiles, env: dict[str, str],
    *extra: str,
) -> Result:
    """``release.py publish --to <target>`` of the signed release in ``folder``."""
    return run_release("publish", "--to", target, "--version", VERSION, "--dir", folder,
                       "--keys-dir", key.keys_dir, *extra, env=env)
