"""The administrator's policy (gzia.policy): settings a user cannot override, whatever
layer they use (file, environment, flag), and where its files are read from."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import gzia.policy
from gzia.config import load_config, paths
from gzia.config_files import load_policy
from gzia.policy import system_policy_file
from gzia.sessions.run_settings import direct_allowed, push_allowed


@pytest.fixture
def policy_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    file = tmp_path / "policy.toml"
    monkeypatch.setenv("GZ_POLICY_FILE", str(file))
    return file


def test_policy_beats_the_file_the_environment_and_the_flag(cli, policy_file: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    policy_file.write_text("allow_push = false\ndirect = false\nkill_grace_ms = 500\n")
    assert cli("config", "set", "kill_grace_ms", "7").exit_code == 1  # refused: policy
    monkeypatch.setenv("GZ_KILL_GRACE_MS", "9")
    monkeypatch.setenv("GZ_ALLOW_PUSH", "true")

    listed = cli("config", "list", "--json").json["data"]["settings"]

    shown = {e["key"]: (e["value"], e["source"]) for e in listed}
    assert shown["kill_grace_ms"] == (500, "policy")
    assert shown["allow_push"] == (False, "policy")
    assert shown["direct"] == (False, "policy")
    assert shown["stop_timeout"] == (10.0, "default")
    assert push_allowed(True) is False
    assert direct_allowed(True) is False


def test_flags_still_win_over_settings_the_policy_leaves_alone(policy_file: Path):
    policy_file.write_text("kill_grace_ms = 500\n")
    assert push_allowed(True) is True
    assert push_allowed(False) is False


def test_config_set_of_a_policy_setting_is_a_safety_block_naming_the_file(
        cli, policy_file: Path):
    policy_file.write_text('default_permission = "readonly"\n')

    english = cli("config", "set", "default_permission", "autonomous")
    spanish = cli("config", "set", "default_permission", "autonomous", "--json",
                  env={"GZ_LANG": "es"})

    assert (english.exit_code, english.stdout) == (1, "")
    assert english.stderr == (
        f"Error: setting 'default_permission' is set by the administrator's policy in "
        f"{policy_file} and cannot be changed\nask the administrator of this machine\n")
    assert spanish.json["errors"] == [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"el ajuste 'default_permission' lo fija la política del administrador en "
                   f"{policy_file} y no se puede cambiar",
        "hint": "pregunta al administrador de esta máquina",
        "details": {"key": "default_permission", "file": str(policy_file)}}]
    assert not paths().config_file.exists()
    assert cli("config", "set", "kill_grace_ms", "5").exit_code == 0


def test_the_systems_file_and_the_built_in_policy_beat_the_variables_file(
        policy_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """GZ_POLICY_FILE can only add rules: it cannot undo the administrator's."""
    system, builtin = tmp_path / "system.toml", tmp_path / "builtin.toml"
    system.write_text("allow_push = false\n[update]\nallow_pre = false\n")
    builtin.write_text('default_permission = "readonly"\n')
    policy_file.write_text('allow_push = true\ndefault_permission = "autonomous"\n'
                           "kill_grace_ms = 50\n[update]\nallow_pre = true\n")
    monkeypatch.setattr(gzia.policy, "system_policy_file", lambda: system)
    monkeypatch.setattr(gzia.policy, "BUILTIN_POLICY", builtin)

    policy = load_policy()

    assert {k: (r.value, r.file) for k, r in policy.settings.items()} == {
        "allow_push": (False, system), "default_permission": ("readonly", builtin),
        "kill_grace_ms": (50, policy_file)}
    assert policy.allows("allow_pre") is False
    assert load_config().value("allow_push").source == "policy"


def test_the_systems_file_is_not_moved_by_the_users_environment(monkeypatch):
    before = system_policy_file()
    monkeypatch.setenv("XDG_CONFIG_DIRS", "/tmp/elsewhere")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/tmp/elsewhere")
    assert system_policy_file() == before
    if sys.platform.startswith("linux"):
        assert before == Path("/etc/xdg/gz-ia/policy.toml")


@pytest.mark.parametrize(("text", "message"), [
    ("registry = 1\n", "unknown setting 'registry' in {file}"),
    ('nexus_password = "pw"\n', "setting 'nexus_password' in {file} is a secret, which a policy "
                                "file (readable by every user) cannot hold"),
    ("[update]\nallow_everything = true\n", "unknown policy rule 'update.allow_everything' "
                                            "in {file}"),
    ('[update]\nversions = "latest"\n', "policy rule 'update.versions' in {file} has an "
                                        "invalid value: latest"),
    ('[agents.claude]\nversion = 3\n', "policy rule 'agents.claude.version' in {file} has an "
                                       "invalid value: 3"),
])  # fmt: skip
def test_a_bad_policy_is_an_error_naming_its_file(cli, policy_file: Path, text: str,
                                                  message: str):
    policy_file.write_text(text)
    done = cli("config", "list", "--json")
    assert done.exit_code == 2
    assert done.json["errors"][0]["message"] == message.format(file=policy_file)


def test_rules_read_as_written(policy_file: Path):
    policy_file.write_text('[update]\nversions = ">=2,<3"\nallow_from = false\n'
                           '[agents.claude]\nversion = "1.0.5"\n[agents.pi]\nversion = ">=0.9"\n')
    policy = load_policy()
    assert policy.allows("allow_from") is False
    assert policy.allows("allow_downgrade") is True
    assert {k: r.value for k, r in policy.agents.items()} == {"claude": "1.0.5", "pi": ">=0.9"}
