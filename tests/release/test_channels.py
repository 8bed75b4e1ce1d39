"""release.py manifest|promote|rollout|yank|rotate-key against the Nexus and Forgejo fakes
(credentials required, Nexus with redeploy disabled, as a release repository is)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gzia.update.manifest import ChannelManifest, Rollout, newest_forgejo_pair, verify_manifest
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.release.conftest import KeyFiles, RunRelease, publish_env, write_key

NEXUS_PATH = "gz-ia/channels/{channel}.json"


@pytest.fixture
def env(nexus: NexusFake, forgejo: ForgejoFake) -> dict[str, str]:
    return publish_env(nexus, forgejo)


def verb(run_release: RunRelease, key: KeyFiles, env: dict[str, str], name: str,
         *args: str | Path, keys_dir: Path | None = None) -> dict[str, Any]:
    result = run_release(name, "--json", "--channel", "stable", "--key-file", key.secret,
                         "--keys-dir", keys_dir or key.keys_dir, *args, env=env)
    document = json.loads(result.stdout)
    assert result.exit_code == (0 if document["ok"] else result.exit_code)
    return dict(document)


def nexus_manifest(nexus: NexusFake, keys: list[Any], channel: str = "stable",
                   ) -> ChannelManifest:
    files = nexus.repos["gz-ia"]
    path = NEXUS_PATH.format(channel=channel)
    return verify_manifest(files[path], files[path + ".minisig"], channel, keys,
                           now=datetime.now(UTC))


def forgejo_manifest(forgejo: ForgejoFake, keys: list[Any]) -> tuple[ChannelManifest, list[str]]:
    [release] = [r for r in forgejo.repo().releases if r.tag_name == "channel-stable"]
    assets = {a.name: a.data for a in release.assets}
    pair = newest_forgejo_pair([{"name": n, "browser_download_url": n} for n in assets])
    assert pair is not None
    manifest = verify_manifest(assets[pair.document], assets[pair.signature], "stable", keys,
                               now=datetime.now(UTC))
    return manifest, sorted(assets)


def test_promote_publishes_a_signed_manifest_to_both_registries(
        run_release: RunRelease, release_key: KeyFiles, env: dict[str, str], nexus: NexusFake,
        forgejo: ForgejoFake) -> None:
    document = verb(run_release, release_key, env, "promote", "--version", "1.4.0",
                    "--minimum", "1.2.0")
    assert document["errors"] == []
    assert (document["data"]["serial"], document["data"]["signed_by"]) == (1, release_key.key_id)
    keys = [release_key.public_key]
    on_nexus = nexus_manifest(nexus, keys)
    assert (on_nexus.version, on_nexus.minimum_version, on_nexus.rollout) == (
        "1.4.0", "1.2.0", None)
    on_forgejo, names = forgejo_manifest(forgejo, keys)
    assert on_forgejo == on_nexus
    assert names == ["manifest-1.json", "manifest-1.json.minisig"]


def test_a_rollout_goes_10_then_50_then_100_percent(
        run_release: RunRelease, release_key: KeyFiles, env: dict[str, str], nexus: NexusFake,
        forgejo: ForgejoFake) -> None:
    keys = [release_key.public_key]
    verb(run_release, release_key, env, "promote", "--version", "1.4.0")
    steps = []
    for percentage in ("10", "50", "100"):
        data = verb(run_release, release_key, env, "rollout", "--version", "1.5.0",
                    "--percentage", percentage)["data"]
        manifest = nexus_manifest(nexus, keys)
        steps.append((data["serial"], manifest.version, manifest.rollout))
    assert steps == [(2, "1.4.0", Rollout("1.5.0", 10)), (3, "1.4.0", Rollout("1.5.0", 50)),
                     (4, "1.5.0", None)]
    manifest, names = forgejo_manifest(forgejo, keys)
    assert (manifest.serial, names) == (4, ["manifest-4.json", "manifest-4.json.minisig"])


def test_yank_the_channel_version_needs_its_replacement(
        run_release: RunRelease, release_key: KeyFiles, env: dict[str, str],
        nexus: NexusFake) -> None:
    verb(run_release, release_key, env, "promote", "--version", "1.5.0")
    refused = verb(run_release, release_key, env, "yank", "--version", "1.5.0", "--reason",
                   "corrupts records")
    assert refused["errors"][0]["code"] == "INVALID_INPUT"
    verb(run_release, release_key, env, "yank", "--version", "1.5.0", "--reason",
         "corrupts   records", "--replace-with", "1.4.0")
    manifest = nexus_manifest(nexus, [release_key.public_key])
    assert (manifest.version, manifest.yanked) == ("1.4.0", {"1.5.0": "corrupts records"})


def test_rotate_then_revoke_a_key(run_release: RunRelease, release_key: KeyFiles,
                                  env: dict[str, str], nexus: NexusFake,
                                  tmp_path: Path) -> None:
    new = write_key(tmp_path / "new")
    both = tmp_path / "both-keys"
    both.mkdir()
    for key in (release_key, new):
        (both / f"{key.key_id}.pub").write_text(key.public.read_text())
    verb(run_release, release_key, env, "promote", "--version", "1.4.0")
    verb(run_release, release_key, env, "rotate-key", "--add-key", new.public)
    revoked = verb(run_release, new, env, "rotate-key", "--revoke-key", release_key.key_id,
                   keys_dir=both)
    assert revoked["data"]["signed_by"] == new.key_id
    manifest = nexus_manifest(nexus, [new.public_key])
    assert (manifest.add_keys, manifest.revoke_keys) == (
        (new.public.read_text().splitlines()[1].strip(),), (release_key.key_id,))
    again = verb(run_release, release_key, env, "promote", "--version", "1.5.0",
                 keys_dir=both)
    assert again["errors"][0]["code"] == "INTEGRITY"
    assert nexus_manifest(nexus, [new.public_key]).version == "1.4.0"


def test_a_key_installed_copies_do_not_trust_signs_nothing(
        run_release: RunRelease, release_key: KeyFiles, env: dict[str, str], nexus: NexusFake,
        tmp_path: Path) -> None:
    stranger = write_key(tmp_path / "stranger")
    document = verb(run_release, stranger, env, "promote", "--version", "1.4.0",
                    keys_dir=release_key.keys_dir)
    assert document["errors"][0]["code"] == "INTEGRITY"
    assert "gz-ia/channels/stable.json" not in nexus.repos["gz-ia"]


def test_dry_run_publishes_nothing(run_release: RunRelease, release_key: KeyFiles,
                                   env: dict[str, str], nexus: NexusFake,
                                   forgejo: ForgejoFake) -> None:
    result = run_release("promote", "--channel", "beta", "--version", "2.0.0rc1",
                         "--percentage", "20", "--dry-run", "--keys-dir", release_key.keys_dir,
                         env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("channel beta: manifest 1: v2.0.0rc1, rollout v2.0.0rc1 "
                                    "at 20%, expires ")
    assert not any(p.startswith("gz-ia/channels/") for p in nexus.repos["gz-ia"])
    assert forgejo.repo().releases == []
