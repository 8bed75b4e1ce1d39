"""--timeout and --no-output-timeout, foreground and background: tree kill, reason, exit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.background.conftest import start_background, wait_final
from tests.conftest import Result
from tests.supervisor.fakes import STUBBORN_WITH_GRANDCHILD, noted_pids, pid_running

QUIET_AFTER_HELLO = """
print("hello", flush=True)
fork_grandchild()
note("ready", 1)
while True:
    time.sleep(1)
"""
CHATTY = """
fork_grandchild()
while True:
    print("tick", flush=True)
    time.sleep(0.1)
"""
MESSAGES = {
    ("en", "timeout"): "session '{id}' was stopped: it ran longer than its --timeout",
    ("en", "no_output_timeout"):
        "session '{id}' was stopped: no output for longer than its --no-output-timeout",
    ("es", "timeout"): "la sesión '{id}' se detuvo: superó su tiempo máximo (--timeout)",
    ("es", "no_output_timeout"):
        "la sesión '{id}' se detuvo: pasó más tiempo sin salida que su --no-output-timeout",
}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("flag", "body", "reason"), [
    ("--timeout", STUBBORN_WITH_GRANDCHILD, "timeout"),
    ("--no-output-timeout", QUIET_AFTER_HELLO, "no_output_timeout"),
])
def test_foreground_watchdog_stops_the_tree_and_says_which(  # noqa: PLR0917 - pytest fixtures
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
    flag: str, body: str, reason: str, lang: str,
) -> None:
    agent("slow", body)
    result = gz("--json", "exec", flag, "1", "--", "slow", cwd=repo, env={"GZ_LANG": lang})
    record = result.json["data"]
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["retryable"]) == ("TIMEOUT", True)
    assert error["message"] == MESSAGES[(lang, reason)].format(id=record["id"])
    assert error["details"]["end_reason"] == reason
    assert (record["status"], record["end_reason"]) == ("killed", reason)
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


@pytest.mark.parametrize(("flag", "body", "reason"), [
    ("--timeout", CHATTY, "timeout"),
    ("--no-output-timeout", QUIET_AFTER_HELLO, "no_output_timeout"),
])
def test_background_watchdog_stops_the_tree_and_records_the_reason(  # noqa: PLR0917 - pytest fixtures
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
    flag: str, body: str, reason: str,
) -> None:
    agent("slow", body)
    data = start_background(gz, repo, "slow", options=(flag, "1.5"))
    final = wait_final(repo, data["id"], timeout=30)
    assert (final["status"], final["end_reason"]) == ("killed", reason)
    assert final["signal"] in (15, 9)
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []
    poll = gz("--json", "session", "poll", data["id"], cwd=repo).json["data"]
    assert poll["end_reason"] == reason
