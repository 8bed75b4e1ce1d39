"""``session stop`` of a foreground run, on a real terminal: gz-ia cannot type into a
person's terminal, so the agent is asked as the terminal's Ctrl+C asks it (SIGINT to its
group, one per Ctrl+C of its quit keys), given the time to end on its own, then killed.

Two ways a foreground agent holds the terminal: handed the terminal itself (``chat``),
or on a PTY gz-ia relays (``exec`` on a terminal)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.background.test_graceful_stop import DOUBLE_SIGINT, IGNORES_CTRL_C
from tests.conftest import Result
from tests.run.conftest import stored_record
from tests.run.test_kill_and_signals import only_session_id, wait_for_pid_recorded
from tests.supervisor.fakes import wait_for_note
from tests.supervisor.terminal_session import TerminalSession

RUNS = {
    "handed-the-terminal": ("claude", ["chat", "-p", "claude", "-i", "work"]),
    "on-a-pty": ("stand-in", ["exec", "--", "stand-in"]),
}


@pytest.fixture
def foreground(agent: Callable[[str, str], Path], repo: Path, notes: Path,
               run_env: dict[str, str]) -> Iterator[Callable[[str, str], tuple[TerminalSession,
                                                                             dict[str, Any]]]]:
    """Start a foreground gz-ia on a real terminal; its session's record once running."""
    terminals: list[TerminalSession] = []

    def start(run: str, body: str) -> tuple[TerminalSession, dict[str, Any]]:
        name, arguments = RUNS[run]
        agent(name, body)
        terminal = TerminalSession([sys.executable, "-m", "gzia", *arguments], env=run_env,
                                   cwd=str(repo))
        terminals.append(terminal)
        wait_for_note(notes, "ready")
        return terminal, wait_for_pid_recorded(repo, only_session_id(repo))

    yield start
    for terminal in terminals:
        terminal.close()


@pytest.mark.parametrize("run", RUNS)
def test_a_foreground_agent_that_quits_on_a_double_ctrl_c_is_stopped(
        foreground: Any, gz: Callable[..., Result], repo: Path, notes: Path, run: str) -> None:
    terminal, record = foreground(run, DOUBLE_SIGINT)

    result = gz("--json", "session", "stop", record["id"], cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["stop"] == {"how": "stopped", "why_killed": None}
    final = stored_record(repo, record["id"])
    assert (final["status"], final["end_reason"], final["exit_code"], final["signal"]) == \
        ("killed", "stopped", 0, None)
    assert (notes / "presses").read_text() == "2"
    assert terminal.finish() == 143


@pytest.mark.parametrize("run", RUNS)
def test_a_foreground_agent_that_ignores_ctrl_c_is_killed_when_the_time_is_up(
        foreground: Any, gz: Callable[..., Result], repo: Path, run: str) -> None:
    terminal, record = foreground(run, IGNORES_CTRL_C)

    result = gz("--json", "session", "stop", record["id"], "--timeout", "0.5", cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["stop"] == {"how": "killed", "why_killed": "timed_out"}
    final = stored_record(repo, record["id"])
    assert (final["status"], final["end_reason"], final["signal"]) == \
        ("killed", "killed", signal.SIGTERM)
    assert final["stop_requested_at"] <= final["finished_at"]  # asked first, then killed
    assert terminal.finish() == 143


@pytest.mark.parametrize("case", [
    ("en", "Error: session '{id}' was stopped (gz-ia session stop)"),
    ("es", "Error: la sesión '{id}' se detuvo (gz-ia session stop)")], ids=["en", "es"])
def test_the_foreground_gz_ia_says_its_session_was_stopped(
        foreground: Any, gz: Callable[..., Result], repo: Path, run_env: dict[str, str],
        case: tuple[str, str]) -> None:
    lang, line = case
    run_env["GZ_LANG"] = lang
    terminal, record = foreground("handed-the-terminal", DOUBLE_SIGINT)

    assert gz("session", "stop", record["id"], cwd=repo).exit_code == 0

    assert terminal.finish() == 143
    assert line.format(id=record["id"]) in terminal.output.decode()
