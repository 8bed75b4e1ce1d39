"""session stop on stand-in agents: one that quits on a double Ctrl+C (read raw, as Claude
Code and pi read it, or as SIGINTs), one that ignores Ctrl+C, one that never exits. The
first is stopped, the others killed; the record says which."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.graceful_stop import stop_gracefully
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from tests.background.conftest import start_background, stored, wait_until
from tests.conftest import Result

DOUBLE_SIGINT = """
presses = []
def on_interrupt(signum, frame):
    presses.append(time.monotonic())
    note("presses", len(presses))
    if len(presses) == 2:
        sys.exit(0)
    print("Press Ctrl-C again to exit", flush=True)
signal.signal(signal.SIGINT, on_interrupt)
note("ready", 1)
while True:
    time.sleep(0.05)
"""

RAW_DOUBLE_CTRL_C = """
import termios, tty
tty.setraw(0)
note("ready", 1)
presses = 0
while True:
    data = os.read(0, 64)
    presses += data.count(b"\\x03")
    note("presses", presses)
    if presses >= 2:
        sys.exit(0)
"""

IGNORES_CTRL_C = """
signal.signal(signal.SIGINT, signal.SIG_IGN)
note("ready", 1)
while True:
    time.sleep(0.05)
"""

NEVER_EXITS = """
signal.signal(signal.SIGINT, signal.SIG_IGN)
ignore_term()
note("ready", 1)
while True:
    time.sleep(0.05)
"""


def started(gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
            notes: Path, body: str) -> str:
    program = agent("stand-in", body)
    data = start_background(gz, repo, str(program))
    wait_until((notes / "ready").exists, what="the stand-in to be ready")
    return str(data["id"])


def test_an_agent_that_quits_on_a_double_ctrl_c_is_stopped(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
        notes: Path) -> None:
    session = started(gz, repo, agent, notes, DOUBLE_SIGINT)
    outcome = stop_gracefully(SessionStore(find_project(repo)), session, 10.0)
    assert (outcome.how, outcome.why_killed) == ("stopped", None)
    record = stored(repo, session)
    assert (record["status"], record["end_reason"], record["exit_code"], record["signal"]) == \
        ("killed", "stopped", 0, None)
    assert (notes / "presses").read_text() == "2"
    assert record["stop_requested_at"] <= record["finished_at"]


def test_an_agent_reading_its_terminal_raw_gets_the_driver_s_keys(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
        notes: Path) -> None:
    """The claude driver declares a double Ctrl+C; a stand-in named claude reads it raw."""
    agent("claude", RAW_DOUBLE_CTRL_C)
    result = gz("--json", "chat", "-b", "-p", "claude", "-i", "work", cwd=repo)
    assert result.exit_code == 0, result.stderr
    session = result.json["data"]["id"]
    wait_until((notes / "ready").exists, what="the stand-in to be ready")
    outcome = stop_gracefully(SessionStore(find_project(repo)), session, 10.0)
    assert outcome.how == "stopped"
    record = stored(repo, session)
    assert (record["status"], record["end_reason"], record["exit_code"]) == \
        ("killed", "stopped", 0)
    assert (notes / "presses").read_text() == "2"


@pytest.mark.parametrize("case", [(IGNORES_CTRL_C, signal.SIGTERM),
                                  (NEVER_EXITS, signal.SIGKILL)],
                         ids=["ignores-ctrl-c", "never-exits"])
def test_an_agent_that_does_not_quit_is_killed_when_the_time_is_up(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
        case: tuple[str, int]) -> None:
    body, last_signal = case
    session = started(gz, repo, agent, notes, body)
    began = time.monotonic()
    outcome = stop_gracefully(SessionStore(find_project(repo)), session, 0.8)
    assert time.monotonic() - began >= 0.8
    assert (outcome.how, outcome.why_killed) == ("killed", "timed_out")
    assert outcome.kill is not None and outcome.kill.signal == last_signal
    record = stored(repo, session)
    assert (record["status"], record["end_reason"], record["exit_code"], record["signal"]) == \
        ("killed", "killed", 128 + last_signal, last_signal)
    assert "stop_requested_at" in record  # asked first, then killed


def test_a_session_that_is_not_running_is_a_conflict(
        gz: Callable[..., Result], repo: Path) -> None:
    from gzia.contract import ConflictError
    from tests.background.conftest import wait_final

    data = start_background(gz, repo, "true")
    wait_final(repo, data["id"])
    with pytest.raises(ConflictError) as raised:
        stop_gracefully(SessionStore(find_project(repo)), data["id"], 1.0)
    assert raised.value.message == f"session '{data['id']}' is not running (current status: " \
        "completed)"


@pytest.mark.parametrize("case", [
    ("en", "✓ Session '{id}' stopped: its agent ended when asked.\n"),
    ("es", "✓ Sesión '{id}' detenida: su agente terminó al pedírselo.\n")], ids=["en", "es"])
def test_session_stop_says_the_agent_ended_when_asked(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
        case: tuple[str, str]) -> None:
    lang, line = case
    session = started(gz, repo, agent, notes, DOUBLE_SIGINT)
    result = gz("session", "stop", session, cwd=repo, env={"GZ_LANG": lang})
    assert (result.exit_code, result.stdout, result.stderr) == (0, line.format(id=session), "")


@pytest.mark.parametrize("case", [
    ("en", "✓ Session '{id}' (PID {pid}) killed: its agent had not ended 0.5 s after it was "
           "asked.\n"),
    ("es", "✓ Sesión '{id}' (PID {pid}) matada: su agente no había terminado 0.5 s después de "
           "pedírselo.\n")], ids=["en", "es"])
def test_session_stop_says_when_it_had_to_kill(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
        case: tuple[str, str]) -> None:
    lang, line = case
    session = started(gz, repo, agent, notes, NEVER_EXITS)
    pid = stored(repo, session)["pid"]
    result = gz("session", "stop", session, "--timeout", "0.5", cwd=repo, env={"GZ_LANG": lang})
    assert (result.exit_code, result.stdout, result.stderr) == \
        (0, line.format(id=session, pid=pid), "")


def test_session_stop_in_json_is_the_record_and_how_it_stopped(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
        notes: Path) -> None:
    session = started(gz, repo, agent, notes, IGNORES_CTRL_C)
    result = gz("--json", "session", "stop", session, "--timeout", "0.3", cwd=repo)
    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert data["stop"] == {"how": "killed", "why_killed": "timed_out"}
    assert {k: data[k] for k in ("id", "status", "end_reason", "signal")} == \
        {"id": session, "status": "killed", "end_reason": "killed", "signal": signal.SIGTERM}
    assert result.json["errors"] == result.json["warnings"] == []


def test_session_stop_of_a_finished_session_is_a_conflict(
        gz: Callable[..., Result], repo: Path) -> None:
    from tests.background.conftest import wait_final

    data = start_background(gz, repo, "true")
    wait_final(repo, data["id"])
    result = gz("--json", "session", "stop", data["id"], cwd=repo)
    assert result.exit_code == 1
    (error,) = result.json["errors"]
    assert (error["code"], error["message"]) == (
        "CONFLICT", f"session '{data['id']}' is not running (current status: completed)")
