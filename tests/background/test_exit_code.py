"""A running background session has no exit code (null) in every answer about it, until
it ends with one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import start_background, wait_final
from tests.conftest import Result


def test_null_while_running_then_the_code_it_ended_with(
        gz: Callable[..., Result], repo: Path) -> None:
    started = start_background(gz, repo, "sleep", "60")
    session = str(started["id"])
    assert (started["status"], started["exit_code"]) == ("running", None)
    for args in (("show", session), ("poll", session)):
        data = gz("--json", "session", *args, cwd=repo).json["data"]
        assert (data["status"], data["exit_code"]) == ("running", None), args
    listed = gz("--json", "session", "list", cwd=repo).json["data"]["sessions"]
    assert [(s["id"], s["exit_code"]) for s in listed] == [(session, None)]
    assert gz("session", "poll", session, cwd=repo).stdout.split()[:4] == [
        session, "running", "exit", "-"]
    waited = gz("--json", "session", "wait", "--timeout", "0.2", session, cwd=repo).json
    assert waited["data"]["sessions"][0]["exit_code"] is None
    assert gz("session", "kill", session, cwd=repo).exit_code == 0
    final = wait_final(repo, session)
    assert (final["status"], final["exit_code"]) == ("killed", 143)
