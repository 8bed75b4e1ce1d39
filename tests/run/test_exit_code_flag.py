"""``--exit-code`` on exec and chat: the agent's own exit code (128+N for signal N) instead
of the contract's 1, as ``timeout``, ``env`` and ``docker run`` do; ``--json`` carries the
agent's code in ``data.exit_code`` either way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result

Gz = Callable[..., Result]

@pytest.mark.parametrize(("script", "code", "status"), [
    ("exit 4", 4, "failed"),
    ("kill -USR1 $$", 128 + 10, "failed"),
    ("exit 0", 0, "completed"),
])
def test_exec_exits_with_the_agent_code_only_when_asked(gz: Gz, repo: Path, script: str,
                                                        code: int, status: str) -> None:
    plain = gz("--json", "exec", "--", "sh", "-c", script, cwd=repo)
    asked = gz("--json", "exec", "--exit-code", "--", "sh", "-c", script, cwd=repo)

    assert (plain.exit_code, asked.exit_code) == (1 if code else 0, code)
    for result in (plain, asked):
        assert (result.json["data"]["exit_code"], result.json["data"]["status"]) == (code, status)
        assert result.json["ok"] is (code == 0)
    if code:
        assert asked.json["errors"][0]["code"] == "AGENT_FAILED"


def test_exec_exit_code_in_human_mode_and_spanish(gz: Gz, repo: Path) -> None:
    result = gz("exec", "--exit-code", "--", "sh", "-c", "exit 7", cwd=repo,
                env={"GZ_LANG": "es"})
    assert result.exit_code == 7
    session = result.stderr.split("sesión ", 1)[1][:8]
    assert result.stderr.splitlines()[1:] == [
        f"Error: el agente de la sesión '{session}' terminó con código 7",
        f"consúltala con: gz-ia session show {session}"]


def test_chat_exits_with_the_agent_code_only_when_asked(gz: Gz, repo: Path, agent: Any) -> None:
    agent("claude", "sys.exit(3)\n")
    plain = gz("--json", "chat", "-p", "claude", "-i", "task", cwd=repo)
    asked = gz("--json", "chat", "-p", "claude", "-i", "task", "--exit-code", cwd=repo)

    assert (plain.exit_code, asked.exit_code) == (1, 3)
    assert plain.json["data"]["exit_code"] == asked.json["data"]["exit_code"] == 3


def test_exit_code_is_not_a_flag_of_other_commands(gz: Gz, repo: Path) -> None:
    result = gz("--json", "session", "list", "--exit-code", cwd=repo)
    assert (result.exit_code, result.json["errors"][0]["code"]) == (2, "UNKNOWN_FLAG")


@pytest.mark.parametrize("command", [["exec", "-b", "--exit-code", "--", "sh", "-c", "exit 4"],
                                     ["chat", "-b", "-p", "shell", "--exit-code"]])
def test_a_background_run_refuses_exit_code_rather_than_ignore_it(gz: Gz, repo: Path,
                                                                  command: list[str]) -> None:
    """-b returns as the agent starts: no code to exit with yet; session wait has it."""
    result = gz("--json", *command, cwd=repo)
    assert result.exit_code == 2
    assert result.json["errors"] == [{
        "code": "INVALID_INPUT", "retryable": False, "details": {"option": "--exit-code"},
        "message": "--exit-code has no code to exit with in a -b run, which returns as the "
                   "agent starts",
        "hint": "wait for it with gz-ia session wait --exit-code <id>"}]
    assert not (repo / ".harness" / "sessions").exists()  # nothing started
    spanish = gz(*command, cwd=repo, env={"GZ_LANG": "es"})
    assert spanish == Result(2, "", (
        "Error: --exit-code no tiene código con el que salir en una ejecución -b, que vuelve "
        "en cuanto arranca el agente\nespérala con gz-ia session wait --exit-code <id>\n"))


def _background(gz: Gz, repo: Path, script: str) -> str:
    started = gz("--json", "exec", "-b", "--", "sh", "-c", script, cwd=repo)
    assert started.exit_code == 0, started.stderr
    session_id: str = started.json["data"]["id"]
    return session_id


def test_session_wait_exit_code_gives_a_background_runs_own_code(gz: Gz, repo: Path) -> None:
    fine, four, signalled = (_background(gz, repo, script)
                             for script in ("exit 0", "exit 4", "kill -USR1 $$"))
    for ids, code in (([fine], 0), ([four], 4), ([signalled], 128 + 10),
                      ([fine, signalled, four], 128 + 10)):
        asked = gz("--json", "session", "wait", "--exit-code", *ids, "--timeout", "60", cwd=repo)
        plain = gz("--json", "session", "wait", *ids, "--timeout", "60", cwd=repo)
        assert (asked.exit_code, plain.exit_code) == (code, 1 if code else 0)
        assert asked.json == plain.json  # the same document either way
        assert (asked.json["ok"], asked.json["data"]["all_succeeded"]) == (True, code == 0)


def test_session_wait_exit_code_is_not_for_until(gz: Gz, repo: Path) -> None:
    session_id = _background(gz, repo, "exit 0")
    result = gz("--json", "session", "wait", "--exit-code", "--until", "idle", session_id,
                cwd=repo)
    assert (result.exit_code, result.json["errors"][0]["message"]) == (
        2, "--exit-code applies to sessions that end, not to --until")
