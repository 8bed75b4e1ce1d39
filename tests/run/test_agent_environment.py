"""gz-ia's own secrets never reach an agent: one real session per driver, with a stand-in
agent on PATH that writes down the environment it was given."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result

Gz = Callable[..., Result]

DUMP_ENVIRONMENT = """
import json
if sys.argv[1:] == ["--version"]:
    print("1.0.0")
with open(os.environ["ENV_DUMP"], "w") as handle:
    json.dump(dict(os.environ), handle)
"""

SECRETS = {
    "GZ_FORGEJO_TOKEN": "forgejo-token-value",
    "GZ_NEXUS_PASSWORD": "nexus-password-value",
    "GZ_NEXUS_USER": "nexus-user-value",
    "GZ_NEXUS_SEARCH_URL": "https://nexus-user-value:nexus-password-value@nexus.example/search",
    "GZ_FORGEJO_API_URL": "https://forgejo.example/api/v1/tags?access_token=url-token-value",
    "GZ_PLUGIN_API_KEY": "plugin-key-value",
    "GZ_PLUGIN_INDEX_URL": "https://plugins.example/index#jwt=jwt-value",  # masked, so withheld
}
KEPT = {
    "GZ_LANG": "en",
    "GZ_DEFAULT_PERMISSION": "supervised",
    "GZ_UPDATE_TIMEOUT": "12",
}
SECRET_TEXTS = ("forgejo-token-value", "nexus-password-value", "nexus-user-value",
                "url-token-value", "plugin-key-value", "jwt-value")

# provider, the binary on PATH, how gz-ia is asked to run it
CASES = {
    "claude": ("claude", ["chat", "-p", "claude"]),
    "opencode": ("opencode", ["chat", "-p", "opencode"]),
    "agy": ("agy", ["chat", "-p", "agy"]),
    "pi-agent": ("pi", ["chat", "-p", "pi-agent"]),
    "shell": ("dump-env", ["exec", "--", "dump-env"]),
}


def assert_no_secret(environment: dict[str, str]) -> None:
    for name in SECRETS:
        assert name not in environment
    leaked = [(name, value) for name, value in environment.items()
              for text in SECRET_TEXTS if text in value or text in name]
    assert leaked == []


@pytest.mark.parametrize("provider", list(CASES))
def test_the_agent_gets_no_gz_ia_secret(
    provider: str, gz: Gz, agent: Any, repo: Path, tmp_path: Path
) -> None:
    binary, args = CASES[provider]
    agent(binary, DUMP_ENVIRONMENT)
    dump = tmp_path / "environment.json"

    result = gz("--json", *args, cwd=repo, env={**SECRETS, **KEPT, "ENV_DUMP": str(dump)})

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["provider"] == provider
    environment = json.loads(dump.read_text())
    assert_no_secret(environment)
    assert {name: environment.get(name) for name in KEPT} == KEPT
    assert environment["ENV_DUMP"] == str(dump)  # the rest of the environment is passed on


def test_chat_with_the_shell_driver_runs_shell_without_secrets(
    gz: Gz, agent: Any, repo: Path, tmp_path: Path
) -> None:
    shell = agent("dump-shell", DUMP_ENVIRONMENT)
    dump = tmp_path / "environment.json"

    result = gz("--json", "chat", "-p", "shell", cwd=repo,
                env={**SECRETS, "SHELL": str(shell), "ENV_DUMP": str(dump)})

    assert result.exit_code == 0, result.stderr
    assert_no_secret(json.loads(dump.read_text()))


def test_the_version_probe_gets_no_gz_ia_secret(gz: Gz, agent: Any, tmp_path: Path) -> None:
    agent("claude", DUMP_ENVIRONMENT)
    dump = tmp_path / "environment.json"

    result = gz("--json", "drivers", cwd=tmp_path, env={**SECRETS, "ENV_DUMP": str(dump)})

    assert result.exit_code == 0, result.stderr
    claude = next(d for d in result.json["data"]["drivers"] if d["id"] == "claude")
    assert claude["version"] == "1.0.0"
    assert_no_secret(json.loads(dump.read_text()))


def test_a_gz_variable_without_credentials_is_passed_on(
    gz: Gz, agent: Any, repo: Path, tmp_path: Path
) -> None:
    agent("dump-env", DUMP_ENVIRONMENT)
    dump = tmp_path / "environment.json"
    plain = {"GZ_NEXUS_SEARCH_URL": "https://nexus.example/service/rest/v1/search?repository=raw",
             "GZ_FORGEJO_API_URL": "https://forgejo.example/api/v1/repos/o/r/tags"}

    result = gz("exec", "--", "dump-env", cwd=repo, env={**plain, "ENV_DUMP": str(dump)})

    assert result.exit_code == 0, result.stderr
    environment = json.loads(dump.read_text())
    assert {name: environment.get(name) for name in plain} == plain
