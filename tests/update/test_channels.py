"""Channel manifests against the Nexus and Forgejo fakes: channel selection, staged rollouts,
yanks, the minimum version, expiry, hostile manifests (docs/update.md, "Channels")."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.manifests import (
    manifest_document,
    publish_forgejo,
    publish_nexus,
)
from tests.fakes.nexus import NexusFake
from tests.fakes.signing import MinisignKey
from tests.update.conftest import forgejo_env, nexus_env, pyz_reports


def state_dir(home: Path) -> Path:
    return home / ".xdg-state" / "gz-ia" / "update"


def test_check_follows_the_channel_version_not_the_newest(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        minisign_key: MinisignKey) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0", serial=7,
                                                             expires="2099-01-01T00:00:00Z")))
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    assert result.exit_code == 0, result.stdout
    data = result.json["data"]
    signer = data["manifest"].pop("signer")
    # the key's id as minisign itself writes it (no leading zeros: one id in 16 is shorter)
    assert minisign_key.pub.read_text().splitlines()[0].endswith(f" public key {signer}")
    assert data == {
        "current": "1.0.0", "latest": "1.5.0", "source": "nexus", "newer": True,
        "channel": "stable",
        "manifest": {"source": "nexus", "serial": 7, "version": "1.5.0",
                     "expires": "2099-01-01T00:00:00Z", "cached": False},
        "target": {"version": "1.5.0", "reason": "channel", "bucket": None,
                   "percentage": None, "rollout_version": None},
        "yanked": None, "minimum_version": None, "below_minimum": False}
    assert result.json["warnings"] == []


def test_without_any_manifest_check_is_what_it_was(nexus: NexusFake, three_releases: None,
                                                   update_cli: Any) -> None:
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    assert result.json["data"] == {"current": "1.0.0", "latest": "3.0.0", "source": "nexus",
                                   "newer": True}


def test_update_channel_setting_picks_that_channels_manifest(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        target: Path) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document("stable", "1.5.0")))
    publish_nexus(nexus, "beta", *signed(manifest_document("beta", "2.0.0")))
    result = update_cli("update", "--json", env={**nexus_env(nexus),
                                                 "GZ_UPDATE_CHANNEL": "beta"})
    assert result.exit_code == 0, result.stdout
    assert (result.json["data"]["version"], result.json["data"]["updated"]) == ("2.0.0", True)
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_a_manifest_served_for_another_channel_is_refused(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    publish_nexus(nexus, "beta", *signed(manifest_document("stable", "1.5.0")))
    result = update_cli("update", "--check", "--json", env={**nexus_env(nexus),
                                                            "GZ_UPDATE_CHANNEL": "beta"})
    assert result.json["data"]["latest"] == "3.0.0"
    assert [w["message"] for w in result.json["warnings"]] == [
        "Nexus: the channel manifest was not used: it is the manifest of channel 'stable', "
        "not 'beta'"]


def test_forgejo_manifest_is_read_when_nexus_has_none(
        nexus: NexusFake, forgejo: ForgejoFake, three_releases: None, signed: Any,
        update_cli: Any) -> None:
    publish_forgejo(forgejo, "stable", 3, *signed(manifest_document(version="1.0.0", serial=3)))
    publish_forgejo(forgejo, "stable", 4, *signed(manifest_document(version="2.0.0", serial=4)))
    result = update_cli("update", "--check", "--json",
                        env={**nexus_env(nexus), **forgejo_env(forgejo)})
    data = result.json["data"]
    assert (data["latest"], data["manifest"]["source"], data["manifest"]["serial"]) == (
        "2.0.0", "forgejo", 4)


def test_invalid_channel_name_is_invalid_input(nexus: NexusFake, three_releases: None,
                                               update_cli: Any) -> None:
    result = update_cli("update", "--check", "--json",
                        env={**nexus_env(nexus), "GZ_UPDATE_CHANNEL": "../x"})
    assert result.exit_code == 2
    assert result.json["errors"][0]["message"] == (
        "invalid update channel '../x': use lower-case letters, digits, '.', '_' or '-', "
        "starting with a letter")


# hostile or stale manifests: refused, said why, and gz-ia chooses as without one ----------


def _refused_falls_back(nexus: NexusFake, update_cli: Any, data: bytes, signature: bytes,
                        reason: str, lang: str = "en") -> None:
    publish_nexus(nexus, "stable", data, signature)
    result = update_cli("update", "--check", "--json",
                        env={**nexus_env(nexus), "GZ_LANG": lang})
    assert result.exit_code == 0
    assert result.json["data"] == {"current": "1.0.0", "latest": "3.0.0", "source": "nexus",
                                   "newer": True}
    [warning] = result.json["warnings"]
    assert (warning["code"], warning["message"]) == ("MANIFEST_REFUSED", reason)


def test_expired_manifest_is_refused_and_the_newest_release_used(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    document = manifest_document(version="1.5.0", expires="2020-01-01T00:00:00+00:00")
    _refused_falls_back(nexus, update_cli, *signed(document),
                        "Nexus: the channel manifest was not used: it expired on "
                        "2020-01-01T00:00:00Z")


def test_expired_manifest_warning_in_spanish(nexus: NexusFake, three_releases: None,
                                            signed: Any, update_cli: Any) -> None:
    document = manifest_document(version="1.5.0", expires="2020-01-01T00:00:00+00:00")
    _refused_falls_back(nexus, update_cli, *signed(document),
                        "Nexus: no se usó el manifiesto del canal: caducó el "
                        "2020-01-01T00:00:00Z", lang="es")


def test_manifest_with_a_bad_signature_is_refused(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    data, signature = signed(manifest_document(version="1.5.0"))
    tampered = data.replace(b"1.5.0", b"1.0.0")
    _refused_falls_back(nexus, update_cli, tampered, signature,
                        "Nexus: the channel manifest was not used: signature rejected: the "
                        f"signature by key {_key_id(signature)} does not match")


def test_manifest_signed_by_an_unknown_key_is_refused(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        tmp_path: Path) -> None:
    stranger = MinisignKey.generate(tmp_path / "stranger")
    data, signature = signed(manifest_document(version="1.5.0"), stranger)
    _refused_falls_back(nexus, update_cli, data, signature,
                        "Nexus: the channel manifest was not used: signature rejected: signed "
                        f"by key {_key_id(signature)}, which is not trusted")


def test_huge_manifest_is_refused_before_it_is_read_whole(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    huge = json.dumps({**manifest_document(), "padding": "x" * 200_000}).encode()
    _refused_falls_back(nexus, update_cli, huge, signed(manifest_document())[1],
                        "Nexus: the channel manifest was not used: it is larger than 65536 bytes")
    assert len(nexus.server.requests_to("/repository/gz-ia/gz-ia/channels/")) == 1


@pytest.mark.parametrize(("content", "detail"), [
    (b"{not json", "not a JSON document"),
    (b"[" * 20_000 + b"]" * 20_000, "not a JSON document"),
    (json.dumps({"schema": 1, "channel": "stable", "serial": 1, "version": "1.5.0",
                 "expires": "2099-01-01T00:00:00Z",
                 "rollout": {"version": "2.0.0", "percentage": 150}}
                ).encode(), "'percentage' must be an integer from 0 to 100"),
    (json.dumps({"schema": 2}).encode(), "not a version 1 channel manifest"),
], ids=["bad-json", "deeply-nested", "percentage-out-of-range", "other-schema"])
def test_malformed_signed_manifest_is_refused(nexus: NexusFake, three_releases: None,
                                              signed: Any, update_cli: Any, content: bytes,
                                              detail: str) -> None:
    _refused_falls_back(nexus, update_cli, *signed(content),
                        f"Nexus: the channel manifest was not used: malformed manifest: {detail}")


def test_an_older_manifest_than_one_seen_is_refused(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(version="2.0.0", serial=9)))
    assert update_cli("update", "--check", "--json",
                      env=nexus_env(nexus)).json["data"]["latest"] == "2.0.0"
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0", serial=8)))
    replayed = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    # refused, and the newer one verified before is still followed (not the newest release)
    assert (replayed.json["data"]["latest"], replayed.json["data"]["manifest"]["serial"]) == (
        "2.0.0", 9)
    refused, missing = replayed.json["warnings"]
    assert (refused["code"], refused["message"], missing["code"]) == (
        "MANIFEST_REFUSED", "Nexus: the channel manifest was not used: its serial 8 is older "
        "than 9, already seen here", "MANIFEST_MISSING")


def _key_id(signature: bytes) -> str:
    import base64

    raw = base64.b64decode(signature.decode().splitlines()[1])
    return format(int.from_bytes(raw[2:10], "little"), "X")


# the cache and the machine id --------------------------------------------------------------


def test_check_caches_the_manifest_privately(nexus: NexusFake, three_releases: None,
                                             signed: Any, update_cli: Any,
                                             isolated_env: Path) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0", serial=2)))
    update_cli("update", "--check", "--json", env=nexus_env(nexus))
    cached = state_dir(isolated_env) / "manifest.json"
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    assert json.loads(cached.read_text())["serial"] == 2
    # gone from every source: followed until it expires (test_manifest_missing.py)
