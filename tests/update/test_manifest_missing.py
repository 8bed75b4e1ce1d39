"""A channel manifest that goes missing after this machine verified one: gz-ia keeps
following the one it verified while it has not expired (warning ``MANIFEST_MISSING``), and
never jumps to the newest release meanwhile (docs/update.md, "When the manifest is missing").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.manifests import in_days, manifest_document, publish_nexus
from tests.fakes.nexus import NexusFake
from tests.update.conftest import forgejo_env, nexus_env, pyz_reports

CHANNELS = "gz-ia/channels/"


def pinned_then_removed(nexus: NexusFake, forgejo: ForgejoFake, releases: Any, signed: Any,
                        update_cli: Any, expires: str) -> dict[str, str]:
    """Releases 1.5.0 to 3.0.0 in both registries, the channel pinned at 1.5.0 (serial 4),
    seen once by this machine, then the manifest removed: both sources answer without one."""
    for version in ("1.5.0", "2.0.0", "3.0.0"):
        nexus.publish(releases(version), version)
        forgejo.publish(f"v{version}", releases(version))
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0", serial=4,
                                                             expires=expires)))
    env = {**nexus_env(nexus), **forgejo_env(forgejo)}
    seen = update_cli("update", "--check", "--json", env=env)
    assert (seen.exit_code, seen.json["data"]["latest"]) == (0, "1.5.0"), seen.stdout
    for name in [n for n in nexus.repos["gz-ia"] if n.startswith(CHANNELS)]:
        del nexus.repos["gz-ia"][name]
    return env


def test_a_missing_manifest_keeps_the_fleet_on_the_one_verified_before(
        nexus: NexusFake, forgejo: ForgejoFake, releases: Any, signed: Any, update_cli: Any,
        target: Path) -> None:
    expires = in_days(2)
    env = pinned_then_removed(nexus, forgejo, releases, signed, update_cli, expires)

    check = update_cli("update", "--check", "--json", env=env)
    spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
    installed = update_cli("update", "--json", env=env)

    data = check.json["data"]
    assert (data["latest"], data["target"]["version"], data["target"]["reason"]) == (
        "1.5.0", "1.5.0", "channel")
    assert (data["manifest"]["serial"], data["manifest"]["cached"]) == (4, True)
    message = ("no source gave a usable manifest of channel stable: following the one verified "
               f"here before (serial 4, until {expires})")
    assert check.json["warnings"] == [{
        "code": "MANIFEST_MISSING", "message": message, "retryable": False, "hint": None,
        "details": {"channel": "stable", "serial": 4, "expires": expires}}]
    assert ("Aviso: ninguna fuente dio un manifiesto utilizable del canal stable: se sigue el "
            f"verificado antes aquí (número de serie 4, hasta {expires})") in spanish.stderr
    assert (installed.exit_code, installed.json["data"]["version"]) == (0, "1.5.0"), (
        installed.stdout)
    assert [w["code"] for w in installed.json["warnings"]] == ["MANIFEST_MISSING"]
    assert pyz_reports(target) == "gz-ia 1.5.0"


def test_an_unreachable_manifest_is_followed_from_the_cache_too(
        nexus: NexusFake, forgejo: ForgejoFake, releases: Any, signed: Any,
        update_cli: Any) -> None:
    env = pinned_then_removed(nexus, forgejo, releases, signed, update_cli, in_days(2))
    assert nexus.server is not None
    nexus.server.inject("status", f"/repository/gz-ia/{CHANNELS}", status=503)

    check = update_cli("update", "--check", "--json", env=env)

    assert check.json["data"]["latest"] == "1.5.0"
    assert check.json["warnings"][-1]["code"] == "MANIFEST_MISSING"


def test_an_expired_cache_lets_the_channel_go_and_is_forgotten(
        nexus: NexusFake, forgejo: ForgejoFake, releases: Any, signed: Any, update_cli: Any,
        isolated_env: Path) -> None:
    env = pinned_then_removed(nexus, forgejo, releases, signed, update_cli, in_days(2))
    cache = isolated_env / ".xdg-state" / "gz-ia" / "update" / "manifest.json"
    document = json.loads(cache.read_text())
    cache.write_text(json.dumps({**document, "expires": "2020-01-01T00:00:00Z"}))

    check = update_cli("update", "--check", "--json", env=env)

    assert check.json["data"] == {"current": "1.0.0", "latest": "3.0.0", "source": "nexus",
                                  "newer": True}
    assert check.json["warnings"] == []
    assert not cache.exists()


def test_the_cache_of_another_channel_is_not_followed(
        nexus: NexusFake, forgejo: ForgejoFake, releases: Any, signed: Any,
        update_cli: Any) -> None:
    env = pinned_then_removed(nexus, forgejo, releases, signed, update_cli, in_days(2))

    beta = update_cli("update", "--check", "--json", env={**env, "GZ_UPDATE_CHANNEL": "beta"})

    assert (beta.json["data"]["latest"], beta.json["warnings"]) == ("3.0.0", [])
