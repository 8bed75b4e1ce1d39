"""End to end: build two real versions with release/, sign, publish them to the fake Nexus
and Forgejo, and let the older installed zipapp update itself to the newer one and back.

The builds are real (pip fetches the locked wheels for CPython 3.11-3.13, build/shiv.sh packs
them), so they happen once per session and every test here shares them (marked
``release_build``). They are an organisation's builds: a defaults file names the session's
own fake registries and is embedded as gz-ia's built-in configuration layer (with a policy
file as the built-in admin policy), and the newer
version is made by ``release.py all`` (build, sign, publish to those registries in one go).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from release import artifacts, build, interpreters
from tests.fakes.forgejo import ForgejoFake, start_forgejo
from tests.fakes.nexus import NexusFake, start_nexus
from tests.fakes.signing import verify_with_minisign
from tests.release.conftest import (
    FORGEJO_TOKEN,
    NEXUS_PASSWORD,
    NEXUS_USER,
    REPO,
    KeyFiles,
    publish_env,
    write_key,
)
from tests.update.conftest import previous_of

# The first test also waits for both builds (pip downloads on a cold cache included).
# One worker runs them all (build/test.sh runs the suite in parallel): the builds once.
pytestmark = [pytest.mark.release_build, pytest.mark.timeout(900),
              pytest.mark.xdist_group("release_builds")]
OLD, NEW = "1.0.0", "1.1.0"
HOST = build.host_platform()
BUILD_TIMEOUT = 900


@dataclass(frozen=True)
class Organisation:
    """The registries an organisation publishes to, built into its zipapps as defaults."""

    nexus: NexusFake
    forgejo: ForgejoFake
    publish_env: dict[str, str]
    defaults: Path
    policy: Path  # the organisation's admin policy, built in with ``--policy``


@dataclass(frozen=True)
class Builds:
    key: KeyFiles
    work_dir: Path  # the prepared site-packages, reused by every build of the session
    dirs: dict[str, Path]  # version -> signed release directory
    reports: dict[str, Any]  # version -> the JSON data of its build (OLD) or all (NEW) step
    org: Organisation

    def pyz(self, version: str) -> Path:
        return self.dirs[version] / f"gz-ia-{version}-{HOST}.pyz"


def release_py(*args: str | Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run release/release.py as CI does; returns its JSON envelope (which must be ok)."""
    done = subprocess.run(
        [sys.executable, str(REPO / "release" / "release.py"), *map(str, args), "--json"],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        check=False,
        env={**os.environ, "PYTHON": sys.executable, **(env or {})},
    )
    document: dict[str, Any] = json.loads(done.stdout)
    assert (done.returncode, document["ok"]) == (0, True), done.stdout + done.stderr
    return document


@pytest.fixture(scope="session")
def organisation(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Organisation]:
    """Its Nexus lets anyone read (publishing needs the password), as a raw repository of
    released tools usually does; its defaults file names both registries."""
    nexus, nexus_server = start_nexus()
    forgejo, forgejo_server = start_forgejo()
    env = publish_env(nexus, forgejo)
    nexus.anonymous_read = True
    defaults = tmp_path_factory.mktemp("org") / "defaults.toml"
    defaults.write_text(
        f'nexus_search_url = "{nexus.search_url("gz-ia")}"\n'
        f'forgejo_api_url = "{forgejo.tags_url()}"\n'
    )
    policy = defaults.with_name("policy.toml")
    policy.write_text("allow_push = false\n[update]\nallow_pre = false\n")
    try:
        yield Organisation(nexus, forgejo, env, defaults, policy)
    finally:
        nexus_server.stop()
        forgejo_server.stop()


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory, organisation: Organisation) -> Builds:
    if HOST is None:
        pytest.skip("this machine is not a platform gz-ia ships for")
    root = tmp_path_factory.mktemp("release-builds")
    key = write_key(root / "key")
    dirs = {version: root / f"dist-{version}" for version in (OLD, NEW)}
    common = ("--platform", HOST, "--work-dir", root / "work", "--keys-dir", key.keys_dir,
              "--defaults", organisation.defaults, "--policy", organisation.policy)
    reports = {OLD: release_py("build", "--version", OLD, "--dir", dirs[OLD], *common)["data"]}
    release_py("sign", "--version", OLD, "--dir", dirs[OLD], "--key-file", key.secret,
               "--keys-dir", key.keys_dir)
    env = {**organisation.publish_env, "GZ_RELEASE_MINISIGN_KEY_FILE": str(key.secret)}
    reports[NEW] = release_py("all", "--version", NEW, "--dir", dirs[NEW], *common, env=env)["data"]
    return Builds(key, root / "work", dirs, reports, organisation)


def run(
    pyz: Path, *args: str, python: str = sys.executable, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, str(pyz), *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env={**os.environ, **(env or {})},
    )


def reported_version(pyz: Path) -> str:
    done = run(pyz, "--version")
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[1].removeprefix("v")


def test_the_artifact_runs_on_every_cpython_here(builds: Builds) -> None:
    found = interpreters.find_cpythons()
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" in found
    for python in found.values():
        for version in (OLD, NEW):
            done = run(builds.pyz(version), "--version", python=str(python))
            assert done.returncode == 0, f"{python}: {done.stderr}"
            assert done.stdout.startswith(f"gz-ia v{version} (commit: "), python
    expected = {**dict.fromkeys(artifacts.PYTHON_VERSIONS, "absent"), **dict.fromkeys(found, "ok")}
    assert builds.reports[OLD]["artifacts"][0]["runs_on"] == expected


@contextlib.contextmanager
def dependencies(pyz: Path) -> Iterator[zipfile.ZipFile]:
    """The zipapp's ``site-packages/``, one member of it (build/set_pyz_entry.py)."""
    with zipfile.ZipFile(pyz) as outer, outer.open("site-packages.zip") as member, \
            zipfile.ZipFile(member) as archive:
        yield archive


def test_the_artifact_embeds_the_trusted_key_and_its_version(builds: Builds) -> None:
    with dependencies(builds.pyz(NEW)) as archive:
        names = set(archive.namelist())
        key = archive.read("site-packages/gzia/update/keys/release.pub").decode()
        version_file = archive.read("site-packages/gzia/_version.py").decode()
        defaults = archive.read("site-packages/gzia/defaults.toml").decode()
        policy = archive.read("site-packages/gzia/policy.toml").decode()
    assert key == builds.key.public.read_text()
    assert defaults == builds.org.defaults.read_text()
    assert policy == builds.org.policy.read_text()
    assert builds.reports[OLD]["policy"] == str(builds.org.policy)
    assert f'__version__ = "{NEW}"' in version_file
    compiled = sorted(n.rsplit("/", 1)[1] for n in names if "_cffi_backend" in n)
    arch = "x86_64" if HOST == "linux-amd64" else "aarch64"
    assert compiled == [f"_cffi_backend.cpython-3{m}-{arch}-linux-gnu.so" for m in (11, 12, 13)]


def test_minisign_accepts_the_release_signature(builds: Builds) -> None:
    folder = builds.dirs[NEW]
    done = verify_with_minisign(
        folder / "SHA256SUMS", folder / "SHA256SUMS.minisig", builds.key.public
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Signature and comment signature verified\n")


@pytest.fixture
def published(builds: Builds, nexus: NexusFake, forgejo: ForgejoFake) -> dict[str, str]:
    """Both versions published by release/ to both fakes; returns gz-ia's update settings."""
    env = publish_env(nexus, forgejo)
    for version in (OLD, NEW):
        release_py(
            "publish",
            "--version",
            version,
            "--dir",
            builds.dirs[version],
            "--keys-dir",
            builds.key.keys_dir,
            env=env,
        )
    return {
        "GZ_NEXUS_SEARCH_URL": nexus.search_url("gz-ia"),
        "GZ_NEXUS_USER": NEXUS_USER,
        "GZ_NEXUS_PASSWORD": NEXUS_PASSWORD,
        "GZ_FORGEJO_API_URL": forgejo.tags_url(),
        "GZ_FORGEJO_TOKEN": FORGEJO_TOKEN,
    }


@pytest.fixture
def installed(builds: Builds, tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    target = folder / "gz-ia.pyz"
    shutil.copy2(builds.pyz(OLD), target)
    return target


def update_and_roll_back(target: Path, env: dict[str, str], source: str) -> list[Any]:
    updated = run(target, "update", "--json", env=env)
    document = json.loads(updated.stdout)
    assert (updated.returncode, document["ok"]) == (0, True), updated.stdout + updated.stderr
    assert document["data"]["source"] == source
    assert reported_version(target) == NEW
    assert reported_version(target.with_name(".gz-ia.pyz.previous")) == OLD

    back = run(target, "update", "rollback", "--json", env=env)
    assert back.returncode == 0, back.stdout + back.stderr
    assert json.loads(back.stdout)["data"] == {
        "path": str(target),
        "version": OLD,
        "previous": str(previous_of(target)),
        "replaced": NEW,
    }
    assert reported_version(target) == OLD
    return list(document["warnings"])


def test_update_through_nexus_then_roll_back(
    installed: Path, published: dict[str, str], nexus: NexusFake
) -> None:
    warnings = update_and_roll_back(installed, published, "nexus")

    assert warnings == []
    assert nexus.server is not None
    downloads = [
        r.path
        for r in nexus.server.requests
        if r.path.startswith("/repository/") and r.method == "GET"
    ]
    assert f"/repository/gz-ia/gz-ia/{NEW}/gz-ia-{NEW}-{HOST}.pyz" in downloads


def test_update_through_forgejo_when_nexus_is_down(
    installed: Path, published: dict[str, str], nexus: NexusFake
) -> None:
    assert nexus.server is not None
    nexus.server.go_down()

    warnings = update_and_roll_back(installed, published, "forgejo")

    assert [w["code"] for w in warnings] == ["NETWORK"]


@pytest.fixture(scope="session")
def foreign_builds(builds: Builds, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The other platforms' artifacts, built from wheels pip fetched for them."""
    folder = tmp_path_factory.mktemp("foreign")
    others = [p for p in ("linux-amd64", "linux-arm64", "darwin-arm64") if p != HOST]
    release_py(
        "build",
        "--version",
        OLD,
        *[a for p in others for a in ("--platform", p)],
        "--dir",
        folder,
        "--work-dir",
        folder / "work",
        "--keys-dir",
        builds.key.keys_dir,
    )
    return folder


@pytest.mark.parametrize(
    ("platform", "suffix"),
    [
        ("linux-arm64", "aarch64-linux-gnu.so"),
        ("linux-amd64", "x86_64-linux-gnu.so"),
        ("darwin-arm64", "darwin.so"),
    ],
)
def test_other_platforms_carry_their_own_compiled_modules(
    foreign_builds: Path, builds: Builds, platform: str, suffix: str
) -> None:
    if platform == HOST:
        pytest.skip("the machine's own platform is run above")
    with dependencies(foreign_builds / f"gz-ia-{OLD}-{platform}.pyz") as archive:
        names = archive.namelist()
        key = archive.read("site-packages/gzia/update/keys/release.pub").decode()
    compiled = sorted(n.removeprefix("site-packages/") for n in names if n.endswith(".so"))
    assert compiled == [
        *[f"_cffi_backend.cpython-3{m}-{suffix}" for m in (11, 12, 13)],
        "cryptography/hazmat/bindings/_rust.abi3.so",
        *[f"pydantic_core/_pydantic_core.cpython-3{m}-{suffix}" for m in (11, 12, 13)],
        *[f"rpds/rpds.cpython-3{m}-{suffix}" for m in (11, 12, 13)],
        *[f"yaml/_yaml.cpython-3{m}-{suffix}" for m in (11, 12, 13)],
    ]
    assert key == builds.key.public.read_text()


def test_all_builds_signs_and_publishes_in_one_go(builds: Builds) -> None:
    folder, org = builds.dirs[NEW], builds.org

    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    assert sorted(files) == ["SHA256SUMS", "SHA256SUMS.minisig", f"gz-ia-{NEW}-{HOST}.pyz",
                             "gz-ia.1"]  # the manual page the build writes beside the zipapp
    assert sorted(builds.reports[NEW]) == ["build", "publish", "sign"]
    assert builds.reports[NEW]["publish"]["forgejo"]["release"] == "created"
    prefix = f"gz-ia/{NEW}/"
    assert {p.removeprefix(prefix): d for p, d in org.nexus.repos["gz-ia"].items()} == files
    (release,) = org.forgejo.repo().releases
    assert (release.tag_name, release.draft) == (f"v{NEW}", False)
    assert {a.name: a.data for a in release.assets} == files


def test_an_organisation_build_updates_with_nothing_set(
    builds: Builds, installed: Path
) -> None:
    """No GZ_* variable, no configuration file: the built-in defaults and keys suffice."""
    assert not [name for name in os.environ if name.startswith("GZ_")]
    listed = run(installed, "config", "list", "--json")
    settings = {e["key"]: e for e in json.loads(listed.stdout)["data"]["settings"]}

    updated = run(installed, "update", "--json")

    org = builds.org
    assert (settings["nexus_search_url"]["value"], settings["nexus_search_url"]["source"]) == (
        org.nexus.search_url("gz-ia"), "built-in"
    )
    assert (settings["forgejo_api_url"]["value"], settings["forgejo_api_url"]["source"]) == (
        org.forgejo.tags_url(), "built-in"
    )
    assert settings["update_timeout"]["source"] == "default"
    assert (settings["allow_push"]["value"], settings["allow_push"]["source"]) == (
        False, "policy")
    document = json.loads(updated.stdout)
    assert (updated.returncode, document["ok"]) == (0, True), updated.stdout + updated.stderr
    assert (document["data"]["source"], document["data"]["version"]) == ("nexus", NEW)
    assert reported_version(installed) == NEW


def test_promote_and_roll_out_steer_a_real_build(
    installed: Path, published: dict[str, str], builds: Builds, nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    """The channel verbs publish a manifest the built zipapp verifies with its built-in key:
    held at the old version while the new one's rollout is at 0%, moved at 100%."""
    env = {**publish_env(nexus, forgejo), "GZ_RELEASE_MINISIGN_KEY_FILE": str(builds.key.secret)}
    keys = ("--keys-dir", builds.key.keys_dir)
    release_py("promote", "--channel", "stable", "--version", OLD, *keys, env=env)
    release_py("rollout", "--channel", "stable", "--version", NEW, "--percentage", "0", *keys,
               env=env)

    held = json.loads(run(installed, "update", "--check", "--json", env=published).stdout)
    assert (held["data"]["latest"], held["data"]["target"]["reason"]) == (OLD, "not_in_rollout")
    assert held["data"]["manifest"]["signer"] == builds.key.key_id
    stays = json.loads(run(installed, "update", "--json", env=published).stdout)
    assert (stays["data"]["updated"], reported_version(installed)) == (False, OLD)

    release_py("rollout", "--channel", "stable", "--percentage", "100", *keys, env=env)
    moved = json.loads(run(installed, "update", "--json", env=published).stdout)
    assert (moved["ok"], moved["data"]["version"], moved["data"]["manifest"]["serial"]) == (
        True, NEW, 3)
    assert reported_version(installed) == NEW
