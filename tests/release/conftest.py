"""Fixtures of the release tests: signing keys, small release directories, the release CLI.

Publishing tests use the shared fake registries (tests/fakes). Tests marked
``release_build`` build real artifacts with release/ and build/shiv.sh (see test_e2e.py).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from gzia.update.minisign import PublicKey, parse_public_key
from release import artifacts
from tests.conftest import Result
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.signing import MinisignKey

REPO = Path(__file__).resolve().parents[2]
NEXUS_USER, NEXUS_PASSWORD = "ci-publisher", "n3xus-S3cret-pw"
FORGEJO_TOKEN = "f0rgejo-t0ken-0123456789abcdef"
VERSION = "1.2.3"
PLATFORMS = ("linux-amd64", "linux-arm64")


@dataclass(frozen=True)
class KeyFiles:
    public_key: PublicKey
    secret: Path
    public: Path
    keys_dir: Path  # holds only ``public``: what a build would embed

    @property
    def key_id(self) -> str:
        return self.public_key.id_hex


def write_key(folder: Path) -> KeyFiles:
    """A new unencrypted key pair made by ``minisign -G -W``."""
    made = MinisignKey.generate(folder)
    keys_dir = folder / "keys"
    keys_dir.mkdir()
    public = made.pub.rename(keys_dir / "release.pub")
    return KeyFiles(parse_public_key(public.read_text()), made.sec, public, keys_dir)


@pytest.fixture(scope="session")
def release_key(tmp_path_factory: pytest.TempPathFactory) -> KeyFiles:
    return write_key(tmp_path_factory.mktemp("key"))


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
