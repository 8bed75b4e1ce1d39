"""chat/exec --label: stored in the record, kept by resume, validated before a start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import stored_record

Gz = Callable[..., Result]


def test_exec_labels_are_stored_and_kept_by_resume(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "print('ok')\n")
    first = gz("--json", "exec", "--label", "team=api", "--label", "run=7", "--", "done",
               cwd=repo)
    assert first.exit_code == 0, first.stderr
    record = first.json["data"]
    assert record["labels"] == {"team": "api", "run": "7"}
    assert stored_record(repo, record["id"])["labels"] == {"team": "api", "run": "7"}

    again = gz("--json", "resume", record["id"], cwd=repo)
    assert again.exit_code == 0, again.stderr
    assert again.json["data"]["labels"] == {"team": "api", "run": "7"}
    listed = gz("--json", "session", "list", "--label", "run=7", cwd=repo)
    assert [s["id"] for s in listed.json["data"]["sessions"]] == [record["id"]]


def test_exec_without_labels_records_null(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "print('ok')\n")
    result = gz("--json", "exec", "--", "done", cwd=repo)
    assert result.exit_code == 0 and result.json["data"]["labels"] is None


@pytest.mark.parametrize(("command", "env", "message"), [
    (["exec", "--label", "bad key=1", "--", "done"], {},
     "invalid label 'bad key=1': expected key=value, the key 1-63 letters, digits or . _ - /"),
    (["chat", "-p", "shell", "--label", "a=1", "--label", "a=2"], {"GZ_LANG": "es"},
     "la clave de etiqueta 'a' aparece dos veces ('a=2')"),
])
def test_a_bad_label_starts_nothing(gz: Gz, repo: Path, command: list[str],
                                    env: dict[str, str], message: str) -> None:
    result = gz(*command, cwd=repo, env=env)
    assert result == Result(2, "", f"Error: {message}\n")
    assert not (repo / ".harness" / "sessions").exists() or not list(
        (repo / ".harness" / "sessions").glob("*.json"))
