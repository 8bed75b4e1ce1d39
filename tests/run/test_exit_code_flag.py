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
