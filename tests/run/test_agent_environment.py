"""gz-ia's own secrets never reach an agent: one real session per driver, with a stand-in
agent on PATH that writes down the environment it was given; and no process the agent can
inspect holds them: a stand-in reads the environment of each of its ancestors up to pid 1
(``/proc/<pid>/environ``), in the foreground, in the background, as root and as an
unprivileged user."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.credentials_kit import (
    READ_ANCESTORS,
    SECRETS,
    assert_no_secret,
    parent_environment,
)

Gz = Callable[..., Result]

DUMP_ENVIRONMENT = """
import json
if sys.argv[1:] == ["--version"]:
    print("1.0.0")
with open(os.environ["ENV_DUMP"], "w") as handle:
    json.dump(dict(os.environ), handle)
"""

KEPT = {
    "GZ_LANG": "en",
    "GZ_DEFAULT_PERMISSION": "supervised",
    "GZ_UPDATE_TIMEOUT": "12",
}

# provider, the binary on PATH, how gz-ia is asked to run it
CASES = {
    "claude": ("claude", ["chat", "-p", "claude"]),
    "opencode": ("opencode", ["chat", "-p", "opencode"]),
    "agy": ("agy", ["chat", "-p", "agy"]),
    "pi-agent": ("pi", ["chat", "-p", "pi-agent"]),
    "shell": ("dump-env", ["exec", "--", "dump-env"]),
}


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


def test_no_ancestor_of_an_exec_agent_holds_a_secret(
    gz: Gz, agent: Any, repo: Path, notes: Path
) -> None:
    agent("read-ancestors", READ_ANCESTORS)

    result = gz("--json", "exec", "--", "read-ancestors", cwd=repo, env=SECRETS)

    assert result.exit_code == 0, result.stderr
    assert parent_environment(notes, parent="exec\0--\0read-ancestors")["FAKE_NOTES"] == str(notes)


def test_no_ancestor_of_a_chat_agent_on_a_terminal_holds_a_secret(
    agent: Any, repo: Path, notes: Path, run_env: dict[str, str]
) -> None:
    import sys

    from tests.supervisor.terminal_session import TerminalSession

    agent("claude", READ_ANCESTORS)
    terminal = TerminalSession([sys.executable, "-m", "gzia", "chat", "-p", "claude", "-i", "go"],
                               env={**run_env, **SECRETS}, cwd=str(repo))
    try:
        assert terminal.finish() == 0, terminal.output
    finally:
        terminal.close()
    parent_environment(notes, parent="chat\0-p\0claude")


def test_no_ancestor_of_a_background_agent_holds_a_secret(
    gz: Gz, agent: Any, repo: Path, notes: Path
) -> None:
    agent("read-ancestors", READ_ANCESTORS)

    result = gz("--json", "exec", "-b", "--", "read-ancestors", cwd=repo, env=SECRETS)

    assert result.exit_code == 0, result.stderr
    parent_environment(notes, parent="gzia\0__holder__")  # and the starting gz-ia above it
    wait_until_ended(repo, result.json["data"]["id"])


def wait_until_ended(repo: Path, session_id: str) -> None:
    import time

    record = repo / ".harness" / "sessions" / f"{session_id}.json"
    deadline = time.monotonic() + 20
    while json.loads(record.read_text())["status"] == "running":
        assert time.monotonic() < deadline, "the background session never ended"
        time.sleep(0.05)


@pytest.mark.pyz
@pytest.mark.parametrize(("options", "parent"), [
    ((), "gz-ia.pyz\0--json\0exec"),
    (("-b",), "gz-ia.pyz\0__holder__"),
])
def test_no_ancestor_holds_a_secret_through_the_zipapp(
    options: tuple[str, ...], parent: str, *, run_pyz: Callable[..., Result], agent: Any,
    repo: Path, notes: Path, run_env: dict[str, str]
) -> None:
    agent("read-ancestors", READ_ANCESTORS)

    result = run_pyz("--json", "exec", *options, "--", "read-ancestors", cwd=repo,
                     env={**run_env, **SECRETS})

    assert result.exit_code == 0, result.stderr
    parent_environment(notes, parent=parent)  # the zipapp ran itself again, as it was run
    wait_until_ended(repo, result.json["data"]["id"])
