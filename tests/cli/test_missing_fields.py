"""A record or event that lacks fields (written by hand, by the original gz-ia, or by an
older version) reads ``-`` where a field is missing in every human view: never ``None``,
``null`` or a label with nothing after it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.shared_fixtures import repo

__all__ = ["repo"]
Cli = Callable[..., Result]

SPARSE = {"id": "0badf00d", "pid": None, "provider": None, "status": "killed",
          "permission_level": None, "working_dir": None, "initial_prompt": None,
          "started_at": None, "finished_at": None, "duration_ms": None, "exit_code": None,
          "is_isolated": True, "worktree_dir": None, "branch_name": None}
EVENT = {"id": "e1", "session_id": "0badf00d", "action": "noted", "stage": "READ",
         "status": None, "timestamp": "2026-12-03T20:07:31Z", "agent_id": None, "role": None,
         "duration_ms": None, "error": None}
VIEWS = [["session", "list"], ["session", "show", "0bad"], ["session", "poll", "0bad"],
         ["session", "metrics", "0bad"], ["session", "logs", "0bad"], ["metrics"],
         ["session", "wait", "0bad"]]


@pytest.mark.parametrize("env", [{}, {"GZ_LANG": "es"}])
@pytest.mark.parametrize("view", VIEWS, ids=" ".join)
def test_a_missing_field_reads_as_a_dash(cli: Cli, repo: Path, env: dict[str, str],
                                         view: list[str]) -> None:
    sessions = repo / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "0badf00d.json").write_text(json.dumps(SPARSE))
    (sessions / "0badf00d.events.jsonl").write_text(json.dumps(EVENT) + "\n")
    shown = cli(*view, "-d", str(repo), env=env)
    assert shown.stdout.strip() and not shown.stderr.startswith("Error"), shown  # wait: 1
    assert not re.search(r"\b(None|null)\b", shown.stdout + shown.stderr), shown
    assert [line for line in shown.stdout.splitlines() if line.rstrip().endswith(":")] == []
