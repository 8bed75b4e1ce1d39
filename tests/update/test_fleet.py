"""Fleet control through channel manifests: staged rollouts, yanks and their downgrade, the
minimum version, key rotation and revocation (docs/update.md, "Channels")."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.update.rollout import bucket
from tests.fakes.manifests import manifest_document, publish_nexus
from tests.fakes.nexus import NexusFake
from tests.fakes.releases import REPO_ROOT, make_standin_pyz
from tests.fakes.signing import MinisignKey
from tests.update.conftest import nexus_env, previous_of, pyz_reports


def update_dir(home: Path) -> Path:
    return home / ".xdg-state" / "gz-ia" / "update"


# staged rollout ------------------------------------------------------------------------------


def test_rollout_buckets_spread_evenly_over_machines() -> None:
    inside = sum(bucket(f"{n:032x}", "2.0.0") < 20 for n in range(1000))
    assert 160 <= inside <= 240


def test_rollout_bucket_depends_on_the_version_too() -> None:
    machine = "0123456789abcdef0123456789abcdef"
    assert len({bucket(machine, f"2.0.{n}") for n in range(50)}) > 10


def _machine_id_for(bucket_wanted: Callable[[int], bool], version: str) -> str:
    return next(m for m in (f"{n:032x}" for n in range(1000))
                if bucket_wanted(bucket(m, version)))


def _check(update_cli: Any, nexus: NexusFake, *args: str) -> dict[str, Any]:
    result = update_cli("update", "--check", "--json", *args, env=nexus_env(nexus))
    assert result.exit_code == 0, result.stdout
    return result.json["data"]


def test_check_says_which_version_this_machine_gets_and_why(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        isolated_env: Path) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", rollout={"version": "2.0.0", "percentage": 20})))
    first = _check(update_cli, nexus)
    machine = update_dir(isolated_env) / "machine-id"
    assert stat.S_IMODE(machine.stat().st_mode) == 0o600
    mine = bucket(machine.read_text().strip(), "2.0.0")
    expected = ("2.0.0", "rollout") if mine < 20 else ("1.5.0", "not_in_rollout")
    assert (first["target"]["version"], first["target"]["reason"]) == expected
    assert first["target"]["bucket"] == mine
    assert [_check(update_cli, nexus)["target"] for _ in range(3)] == [first["target"]] * 3


@pytest.mark.parametrize(("inside", "version", "why"), [
    (True, "2.0.0", "in the 20% rollout of v2.0.0 (bucket {bucket})"),
    (False, "1.5.0", "not yet in the 20% rollout of v2.0.0 (bucket {bucket}; --ignore-rollout "
                     "takes it now)"),
])
def test_check_tells_people_the_rollout(nexus: NexusFake, three_releases: None, signed: Any,
                                        update_cli: Any, isolated_env: Path, inside: bool,
                                        version: str, why: str) -> None:
    machine = _machine_id_for(lambda b: (b < 20) == inside, "2.0.0")
    update_dir(isolated_env).mkdir(parents=True)
    (update_dir(isolated_env) / "machine-id").write_text(machine + "\n")
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", serial=4, rollout={"version": "2.0.0", "percentage": 20})))
    result = update_cli("update", "--check", env=nexus_env(nexus))
    assert result.stdout.splitlines()[2] == (
        f"✧ Channel stable (manifest 4 from nexus): this machine gets v{version}: "
        + why.format(bucket=bucket(machine, "2.0.0")))


def test_ignore_rollout_takes_the_rollout_version_now(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        isolated_env: Path, target: Path) -> None:
    update_dir(isolated_env).mkdir(parents=True)
    (update_dir(isolated_env) / "machine-id").write_text(
        _machine_id_for(lambda b: b >= 20, "2.0.0"))
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", rollout={"version": "2.0.0", "percentage": 20})))
    assert _check(update_cli, nexus)["latest"] == "1.5.0"
    result = update_cli("update", "--ignore-rollout", "--json", env=nexus_env(nexus))
    assert result.json["data"]["target"]["reason"] == "ignore_rollout"
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_machine_id_is_created_once_by_racing_processes(isolated_env: Path) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from gzia.update.trust import machine_id; print(machine_id())")
    children = [subprocess.Popen([sys.executable, "-c", code, str(REPO_ROOT)],
                                 stdout=subprocess.PIPE, text=True, env=os.environ.copy())
                for _ in range(6)]
    ids = {child.communicate(timeout=60)[0].strip() for child in children}
    assert len(ids) == 1
    assert ids == {(update_dir(isolated_env) / "machine-id").read_text().strip()}
    assert [p.name for p in update_dir(isolated_env).iterdir()] == ["machine-id"]


# yanks ---------------------------------------------------------------------------------------


def test_a_yanked_running_version_moves_to_the_channel_version_even_older(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        target: Path) -> None:
    make_standin_pyz(target, "2.0.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", yanked=[{"version": "2.0.0", "reason": "corrupts session records"}])))
    check = update_cli("update", "--check", "--json", env=nexus_env(nexus), installed="2.0.0")
    assert check.json["data"]["yanked"] == "corrupts session records"
    assert check.json["warnings"] == [{
        "code": "YANKED_VERSION", "retryable": False, "hint": None,
        "message": "v2.0.0 was yanked from channel stable: corrupts session records; "
                   "'gz-ia update' moves to v1.5.0",
        "details": {"version": "2.0.0", "reason": "corrupts session records"}}]
    result = update_cli("update", "--json", env=nexus_env(nexus), installed="2.0.0")
    assert result.exit_code == 0, result.stdout
    assert (result.json["data"]["version"], result.json["data"]["updated"]) == ("1.5.0", True)
    assert pyz_reports(target) == "gz-ia 1.5.0"
    assert pyz_reports(previous_of(target)) == "gz-ia 2.0.0"


LEAVE_THE_YANK = {
    "en": ["❯ Current version: v3.5.0", "✧ Remote version: v1.5.0 (nexus)",
           "✧ Channel stable (manifest 1 from nexus): this machine gets v1.5.0: the channel's "
           "version",
           "⚡ An update is available: v1.5.0, the version of channel stable, replaces the "
           "yanked v3.5.0 (an older version). Run 'gz-ia update' to install it."],
    "es": ["❯ Versión actual: v3.5.0", "✧ Versión remota: v1.5.0 (nexus)",
           "✧ Canal stable (manifiesto 1 de nexus): esta máquina recibe v1.5.0: la versión del "
           "canal",
           "⚡ Hay una actualización disponible: v1.5.0, la versión del canal stable, sustituye "
           "a la v3.5.0 retirada (es una versión anterior). Ejecuta 'gz-ia update' para "
           "instalarla."],
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_check_and_update_say_an_older_channel_version_replaces_a_yanked_one(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any, target: Path,
        lang: str) -> None:
    """Ahead of the channel on a yanked version: an update is available (a downgrade), never
    "already at the latest", whether 'update' was only asked to check or a flag (--pre)
    kept it from moving; what 'update' then does is what was said."""
    make_standin_pyz(target, "3.5.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", yanked=[{"version": "3.5.0", "reason": "corrupts session records"}])))
    env = {**nexus_env(nexus), "GZ_LANG": lang}
    check = update_cli("update", "--check", env=env, installed="3.5.0")
    assert check.exit_code == 0, check.stderr
    assert check.stdout.splitlines() == LEAVE_THE_YANK[lang]
    assert "'gz-ia update'" in check.stderr.splitlines()[-1]  # YANKED_VERSION: the same advice
    held = update_cli("update", "--pre", env=env, installed="3.5.0")  # newest 3.0.0: older
    assert held.exit_code == 0, held.stderr
    assert held.stdout.splitlines() == LEAVE_THE_YANK[lang][-1:]
    assert pyz_reports(target) == "gz-ia 3.5.0"
    moved = update_cli("update", "--json", env=env, installed="3.5.0")
    assert (moved.json["data"]["version"], moved.json["data"]["updated"]) == ("1.5.0", True)
    assert pyz_reports(target) == "gz-ia 1.5.0"


def test_without_a_yank_a_machine_ahead_of_its_channel_stays(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any,
        target: Path) -> None:
    make_standin_pyz(target, "2.0.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0")))
    result = update_cli("update", "--json", env=nexus_env(nexus), installed="2.0.0")
    assert (result.exit_code, result.json["data"]["updated"]) == (0, False)
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_a_yanked_version_is_never_installed(nexus: NexusFake, three_releases: None,
                                             signed: Any, update_cli: Any,
                                             target: Path) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="2.0.0", yanked=[{"version": "3.0.0", "reason": "broken"}])))
    for args in (["--version", "3.0.0"], ["--pre"]):
        result = update_cli("update", "--json", *args, env=nexus_env(nexus))
        assert result.exit_code == 1
        assert result.json["errors"][0]["code"] == "SAFETY_BLOCK"
        assert result.json["errors"][0]["message"] == \
            "v3.0.0 was yanked from channel stable: broken"
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_doctor_tells_a_yanked_version_from_the_cache(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", yanked=[{"version": "1.0.0", "reason": "leaks a token"}])))
    update_cli("update", "--check", "--json", env=nexus_env(nexus))
    nexus.server.go_down()  # doctor reads only the cache
    result = update_cli("doctor", "--json")
    [release] = [c for c in result.json["data"]["checks"] if c["name"] == "release"]
    assert release == {"name": "release", "ok": False, "required": False,
                       "detail": "v1.0.0 was yanked from channel stable: leaks a token",
                       "fix": "run 'gz-ia update'"}


# minimum version -----------------------------------------------------------------------------


def test_below_the_minimum_every_command_warns_from_the_cache(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0",
                                                             minimum_version="1.2.0")))
    assert _check(update_cli, nexus)["below_minimum"] is True
    nexus.server.go_down()
    line = ("gz-ia v1.0.0 is below v1.2.0, the minimum version channel stable supports: run "
            "'gz-ia update'")
    human = update_cli("errors")
    assert human.exit_code == 0
    assert human.stderr.count("is below v1.2.0") == 1
    assert line in human.stderr.splitlines()[-1]
    as_json = update_cli("errors", "--json")
    assert as_json.json["warnings"] == [{
        "code": "BELOW_MINIMUM_VERSION", "message": line, "retryable": False, "hint": None,
        "details": {"current": "1.0.0", "minimum_version": "1.2.0", "channel": "stable"}}]
    assert as_json.stderr == ""
    assert update_cli("errors", "-q").stderr == ""
    spanish = update_cli("errors", env={"GZ_LANG": "es"})
    assert ("gz-ia v1.0.0 es anterior a v1.2.0, la versión mínima que admite el canal stable: "
            "ejecuta 'gz-ia update'") in spanish.stderr
    doctor = update_cli("doctor", "--check", "--json")
    assert (doctor.exit_code, doctor.json["data"]["ready"]) == (1, False)
    assert update_cli("errors", "--json", installed="1.2.0").json["warnings"] == []


def test_a_cached_manifest_of_another_channel_says_nothing(
        nexus: NexusFake, three_releases: None, signed: Any, update_cli: Any) -> None:
    """After update_channel changes, the old channel's cached minimum and yanks are not this
    machine's: no warning, no release line in doctor, until the new channel is cached."""
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", minimum_version="1.2.0",
        yanked=[{"version": "1.0.0", "reason": "leaks a token"}])))
    assert _check(update_cli, nexus)["below_minimum"] is True
    nexus.server.go_down()
    beta = {"GZ_UPDATE_CHANNEL": "beta"}
    assert update_cli("errors", "--json", env=beta).json["warnings"] == []
    checks = update_cli("doctor", "--json", env=beta).json["data"]["checks"]
    assert [c for c in checks if c["name"] == "release"] == []
    stable = update_cli("errors", "--json", env={"GZ_UPDATE_CHANNEL": "stable"})
    assert [w["code"] for w in stable.json["warnings"]] == ["BELOW_MINIMUM_VERSION"]


# keys ----------------------------------------------------------------------------------------


def test_a_manifest_signed_by_a_trusted_key_adds_a_new_one(
        nexus: NexusFake, signed: Any, update_cli: Any, releases: Any, tmp_path: Path,
        target: Path, isolated_env: Path) -> None:
    new = MinisignKey.generate(tmp_path / "new-key")
    nexus.publish(releases("2.0.0", key=new), "2.0.0")
    refused = update_cli("update", "--json", env=nexus_env(nexus))
    assert refused.json["errors"][0]["code"] == "INTEGRITY"  # not trusted yet
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="2.0.0", keys={"add": [new.public_line], "revoke": []})))
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"
    trust = update_dir(isolated_env) / "trust.json"
    assert stat.S_IMODE(trust.stat().st_mode) == 0o600


def test_a_revoked_key_is_refused_from_then_on(
        nexus: NexusFake, signed: Any, update_cli: Any, releases: Any, tmp_path: Path,
        minisign_key: MinisignKey, target: Path) -> None:
    new = MinisignKey.generate(tmp_path / "new-key")
    old_id = _key_id_of(minisign_key)
    nexus.publish(releases("2.0.0"), "2.0.0")  # signed by the key about to be revoked
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="2.0.0", serial=1, keys={"add": [new.public_line], "revoke": []})))
    assert _check(update_cli, nexus)["latest"] == "2.0.0"  # the new key is learned
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="2.0.0", serial=2, keys={"add": [], "revoke": [old_id]}), new))
    assert _check(update_cli, nexus)["manifest"]["serial"] == 2
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.json["errors"][0]["code"] == "INTEGRITY"
    assert result.json["errors"][0]["message"] == (
        f"SHA256SUMS signature rejected: signed by key {old_id}, which is not trusted")
    assert pyz_reports(target) == "gz-ia 1.0.0"
    publish_nexus(nexus, "stable", *signed(manifest_document(version="2.0.0", serial=3)))
    check = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    assert check.json["warnings"][0]["message"] == (
        "Nexus: the channel manifest was not used: signature rejected: signed by key "
        f"{old_id}, which is not trusted")


def _key_id_of(key: MinisignKey) -> str:
    import base64

    raw = base64.b64decode(key.public_line)
    return format(int.from_bytes(raw[2:10], "little"), "X")


def test_check_tells_the_rollout_in_spanish(nexus: NexusFake, three_releases: None,
                                           signed: Any, update_cli: Any,
                                           isolated_env: Path) -> None:
    machine = _machine_id_for(lambda b: b >= 20, "2.0.0")
    update_dir(isolated_env).mkdir(parents=True)
    (update_dir(isolated_env) / "machine-id").write_text(machine)
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", serial=4, rollout={"version": "2.0.0", "percentage": 20})))
    result = update_cli("update", "--check", env={**nexus_env(nexus), "GZ_LANG": "es"})
    assert result.stdout.splitlines()[2] == (
        "✧ Canal stable (manifiesto 4 de nexus): esta máquina recibe v1.5.0: todavía fuera del "
        f"despliegue al 20% de v2.0.0 (grupo {bucket(machine, '2.0.0')}; --ignore-rollout la "
        "instala ya)")


def test_a_damaged_trust_file_trusts_nothing_more_than_built_in(
        nexus: NexusFake, three_releases: None, update_cli: Any, isolated_env: Path,
        target: Path) -> None:
    update_dir(isolated_env).mkdir(parents=True)
    (update_dir(isolated_env) / "trust.json").write_text(
        '{"added": {"X": "not a key"}, "revoked": "nope", "serials": []}')
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert (result.exit_code, result.json["data"]["version"]) == (0, "3.0.0"), result.stdout
    assert pyz_reports(target) == "gz-ia 3.0.0"
