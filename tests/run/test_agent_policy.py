"""Agent CLIs governed with gz-ia (docs/drivers.md, "Updates and versions"): real sessions
with stand-in agents on PATH. Their own updaters are switched off unless
``agent_autoupdate``; the administrator's policy refuses an agent outside its versions,
and ``drivers``/``doctor`` show each agent's version against it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result

Gz = Callable[..., Result]

AGENT = """
import json
if sys.argv[1:] == ["--version"]:
    print(os.environ.get("FAKE_VERSION", "2.1.197") + " (stand-in)")
    sys.exit(0)
with open(os.environ["ENV_DUMP"], "w") as handle:
    json.dump(dict(os.environ), handle)
"""

# provider, binary, the variables that switch its updater off (checked against the real
# CLIs: docs/drivers.md)
UPDATERS = {
    "claude": ("claude", {"DISABLE_AUTOUPDATER": "1"}),
    "opencode": ("opencode", {"OPENCODE_DISABLE_AUTOUPDATE": "true"}),
    "pi-agent": ("pi", {"PI_SKIP_VERSION_CHECK": "1"}),
}
UPDATER_NAMES = {name for _, off in UPDATERS.values() for name in off}


@pytest.mark.parametrize("provider", list(UPDATERS))
@pytest.mark.parametrize("autoupdate", [None, "true"])
def test_sessions_switch_the_agents_updater_off_unless_asked(  # noqa: PLR0917 - fixtures
        provider: str, autoupdate: str | None, gz: Gz, agent: Any, repo: Path,
        tmp_path: Path) -> None:
    binary, off = UPDATERS[provider]
    agent(binary, AGENT)
    dump = tmp_path / "environment.json"
    env = {"ENV_DUMP": str(dump), **({"GZ_AGENT_AUTOUPDATE": autoupdate} if autoupdate else {})}

    result = gz("--json", "chat", "-p", provider, cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    given = json.loads(dump.read_text())
    updater_vars = {k: v for k, v in given.items() if k in UPDATER_NAMES}
    assert updater_vars == ({} if autoupdate else off)


def policy(tmp_path: Path, text: str) -> dict[str, str]:
    file = tmp_path / "policy.toml"
    file.write_text(text)
    return {"GZ_POLICY_FILE": str(file)}


def test_an_agent_outside_the_policy_is_refused_before_anything_is_created(
        gz: Gz, agent: Any, repo: Path, tmp_path: Path) -> None:
    agent("claude", AGENT)
    env = {**policy(tmp_path, '[agents.claude]\nversion = ">=2.2"\n'),
           "ENV_DUMP": str(tmp_path / "never.json")}
    file = tmp_path / "policy.toml"

    english = gz("--json", "chat", "-p", "claude", cwd=repo, env=env)
    spanish = gz("chat", "-p", "claude", cwd=repo, env={**env, "GZ_LANG": "es"})

    assert english.exit_code == 1
    assert english.json["errors"] == [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"claude 2.1.197 is outside the versions the administrator's policy in "
                   f"{file} allows (>=2.2)",
        "hint": "install a version >=2.2 of it: npm install -g @anthropic-ai/claude-code",
        "details": {"agent": "claude", "version": "2.1.197", "versions": ">=2.2",
                    "file": str(file), "install": "npm install -g @anthropic-ai/claude-code"}}]
    assert spanish.stderr == (
        f"Error: claude 2.1.197 está fuera de las versiones que permite la política del "
        f"administrador en {file} (>=2.2)\n"
        "instala una versión >=2.2: npm install -g @anthropic-ai/claude-code\n")
    assert not (tmp_path / "never.json").exists()
    assert not (repo / ".harness" / "sessions").exists() or not any(
        (repo / ".harness" / "sessions").glob("*.json"))


def test_an_agent_within_the_policy_runs(gz: Gz, agent: Any, repo: Path,
                                         tmp_path: Path) -> None:
    agent("claude", AGENT)
    env = {**policy(tmp_path, '[agents.claude]\nversion = "2.1.197"\n'),
           "ENV_DUMP": str(tmp_path / "env.json")}
    result = gz("--json", "chat", "-p", "claude", cwd=repo, env=env)
    assert result.exit_code == 0, result.stderr


def test_drivers_and_doctor_show_each_agents_version_against_the_policy(
        gz: Gz, bin_dir: Path, repo: Path, tmp_path: Path) -> None:
    for binary in ("claude", "pi"):  # a shell script answers --version at once
        stand_in = bin_dir / binary
        stand_in.write_text('#!/bin/sh\necho "2.1.197 (stand-in)"\n')
        stand_in.chmod(0o755)
    env = policy(tmp_path, '[agents.claude]\nversion = ">=2.2"\n[agents.pi-agent]\n'
                           'version = ">=2"\n[agents.opencode]\nversion = ">=1"\n')
    file = str(tmp_path / "policy.toml")

    listed = gz("--json", "drivers", cwd=repo, env=env).json["data"]["drivers"]
    human = gz("drivers", cwd=repo, env=env).stdout
    doctor = gz("--json", "doctor", cwd=repo, env=env).json["data"]

    policies = {d["id"]: d.get("policy") for d in listed}
    assert policies["claude"] == {"versions": ">=2.2", "file": file, "allowed": False}
    assert policies["pi-agent"] == {"versions": ">=2", "file": file, "allowed": True}
    assert policies["opencode"] == {"versions": ">=1", "file": file, "allowed": None}
    assert policies["agy"] is None
    assert human.endswith("Versions the administrator's policy allows:\n"
                          "  claude: >=2.2 (refused: sessions will not start)\n"
                          "  opencode: >=1 (not installed)\n"
                          "  pi-agent: >=2 (allowed)\n")
    [check] = [c for c in doctor["checks"] if c["name"] == "agent_versions"]
    assert check == {"name": "agent_versions", "ok": False, "required": False,
                     "detail": "agents outside the administrator's policy: claude 2.1.197 "
                               "(>=2.2)",
                     "fix": "install the versions the policy allows (gz-ia drivers)"}
