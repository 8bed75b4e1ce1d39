"""``gz-ia update`` under the administrator's policy (docs/configuration.md, "Admin policy"):
the versions it may install and the flags it permits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.nexus import NexusFake
from tests.update.conftest import nexus_env, pyz_reports


@pytest.fixture
def policy_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    file = tmp_path / "policy.toml"
    monkeypatch.setenv("GZ_POLICY_FILE", str(file))
    return file


def test_the_newest_release_the_policy_allows_is_installed(nexus: NexusFake, releases,
                                                            update_cli, target, policy_file):
    for version in ("1.5.0", "2.0.0"):
        nexus.publish(releases(version), version)
    policy_file.write_text('[update]\nversions = "<2"\n')

    checked = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    done = update_cli("update", "--json", env=nexus_env(nexus))

    assert checked.json["data"]["latest"] == "1.5.0"
    assert (done.exit_code, done.json["data"]["version"]) == (0, "1.5.0")
    assert pyz_reports(target) == "gz-ia 1.5.0"


def test_a_version_outside_the_policy_is_refused(nexus: NexusFake, releases, update_cli,
                                                 target, policy_file):
    nexus.publish(releases("2.0.0"), "2.0.0")
    policy_file.write_text('[update]\nversions = "1.5.0"\n')
    before = target.read_bytes()

    done = update_cli("update", "--json", env=nexus_env(nexus))

    assert done.exit_code == 1
    assert done.json["errors"] == [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"the administrator's policy in {policy_file} allows only gz-ia 1.5.0, and "
                   "no such release was found",
        "hint": "ask the administrator of this machine",
        "details": {"file": str(policy_file), "versions": "1.5.0", "found": ["2.0.0"]}}]
    assert target.read_bytes() == before


@pytest.mark.parametrize(("flags", "flag"), [(("--pre",), "--pre"),
                                             (("--version", "0.9.0", "--allow-downgrade"),
                                              "--allow-downgrade")])
def test_flags_the_policy_withholds_are_refused_before_any_request(
        nexus: NexusFake, update_cli, policy_file, flags, flag):
    policy_file.write_text("[update]\nallow_pre = false\nallow_downgrade = false\n")

    done = update_cli("update", *flags, env={**nexus_env(nexus), "GZ_LANG": "es"})

    assert done.exit_code == 1
    assert done.stderr == (f"Error: {flag} no está permitido por la política del administrador "
                           f"en {policy_file}\npregunta al administrador de esta máquina\n")
    assert nexus.server.requests == []
