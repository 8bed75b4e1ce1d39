"""Foreground runs on a real terminal: Ctrl+C reaches the agent, never gz-ia."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.supervisor.fakes import write_agent
from tests.supervisor.terminal_session import TerminalSession

DRIVER = Path(__file__).with_name("drive_supervised.py")

HANDOFF_AGENT = """
import termios
foreground = os.tcgetpgrp(0) == os.getpgrp()
attrs = termios.tcgetattr(0)
attrs[3] &= ~termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, attrs)
print("READY foreground=%s" % foreground, flush=True)
while True:
    time.sleep(1)
"""

PTY_AGENT = """
print("READY tty=%s" % os.isatty(0), flush=True)
while True:
    time.sleep(1)
"""


@pytest.fixture
def terminal_run(tmp_path: Path, notes: Path) -> Iterator[Any]:
    sessions: list[TerminalSession] = []

    def start(body: str, *, pty: bool) -> tuple[TerminalSession, Path]:
        agent = write_agent(tmp_path / "agent", body)
        spec = tmp_path / "spec.json"
        env = {"PATH": os.environ["PATH"], "FAKE_NOTES": str(notes)}
        spec.write_text(json.dumps({"argv": [str(agent)], "cwd": str(tmp_path), "env": env,
                                    "pty": pty}))
        report = tmp_path / "report.json"
        session = TerminalSession([sys.executable, str(DRIVER), str(spec), str(report)])
        sessions.append(session)
        return session, report

    yield start
    for session in sessions:
        session.close()


def test_ctrl_c_goes_to_the_agent_and_the_terminal_is_given_back(terminal_run: Any):
    terminal, report_path = terminal_run(HANDOFF_AGENT, pty=False)
    terminal.read_until(b"READY foreground=True")
    terminal.type(b"\x03")
    assert terminal.finish() == 0
    report = json.loads(report_path.read_text())
    assert report["outcome"]["signal"] == 2
    assert report["outcome"]["end_reason"] == "signal"
    assert report["outcome"]["received_signal"] is None  # gz-ia itself never got SIGINT
    assert report["terminal_before"]["foreground"] is True
    assert report["terminal_after"] == report["terminal_before"]  # echo is back on


def test_ctrl_c_through_a_pty_run_reaches_the_agent(terminal_run: Any):
    terminal, report_path = terminal_run(PTY_AGENT, pty=True)
    terminal.read_until(b"READY tty=True")
    terminal.type(b"\x03")
    assert terminal.finish() == 0
    report = json.loads(report_path.read_text())
    assert report["outcome"]["signal"] == 2
    assert report["outcome"]["received_signal"] is None
    assert report["terminal_after"] == report["terminal_before"]  # raw mode undone


READING_AGENT = """
signal.signal(signal.SIGCONT, lambda *_: os.write(1, b"CONTINUED\\r\\n"))
print("READY", flush=True)
for line in sys.stdin:
    print("GOT " + line.strip(), flush=True)
"""


def test_ctrl_z_does_not_leave_the_terminal_with_a_stopped_agent(terminal_run: Any):
    terminal, report_path = terminal_run(READING_AGENT, pty=False)
    terminal.read_until(b"READY")
    terminal.type(b"\x1a")  # the agent stops; gz-ia (orphaned here: its stop is discarded)
    terminal.read_until(b"CONTINUED")  # takes the terminal back, hands it over, continues it
    terminal.type(b"still here\r")
    terminal.read_until(b"GOT still here")
    terminal.type(b"\x03")
    assert terminal.finish() == 0
    report = json.loads(report_path.read_text())
    assert report["outcome"]["signal"] == 2
    assert report["terminal_after"] == report["terminal_before"]


def test_ctrl_z_and_fg_under_a_job_control_shell(tmp_path: Path, notes: Path):
    agent = write_agent(tmp_path / "agent", READING_AGENT)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"argv": [str(agent)], "cwd": str(tmp_path),
                                "env": {"PATH": os.environ["PATH"], "FAKE_NOTES": str(notes)}}))
    report = tmp_path / "report.json"
    shell = TerminalSession(["bash", "--norc", "--noprofile", "-i"],
                            env={"PATH": os.environ["PATH"], "PS1": "$ ", "TERM": "dumb"})
    try:
        shell.read_until(b"$ ")
        shell.type(f"{sys.executable} {DRIVER} {spec} {report}\r".encode())
        shell.read_until(b"READY")
        shell.type(b"\x1a")
        shell.read_until(b"Stopped")  # the shell has its terminal back
        shell.type(b"fg\r")
        shell.read_until(b"CONTINUED")
        shell.type(b"after fg\r")
        shell.read_until(b"GOT after fg")
        shell.type(b"\x03")
        deadline = time.monotonic() + 15
        while not report.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        shell.type(b"exit\r")
        shell.finish()
    finally:
        shell.close()
    outcome = json.loads(report.read_text())
    assert outcome["outcome"]["signal"] == 2
    assert outcome["terminal_after"] == outcome["terminal_before"]


@pytest.mark.parametrize("program", ["missing", "not_executable", "no_shebang"])
def test_a_spawn_failure_gives_the_terminal_back(tmp_path: Path, notes: Path, program: str):
    """The child takes the terminal before its exec fails: gz-ia must take it back."""
    target = tmp_path / program
    if program != "missing":
        target.write_text("echo never\n")
        target.chmod(0o644 if program == "not_executable" else 0o755)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"argv": [str(target)], "cwd": str(tmp_path),
                                "env": {"PATH": os.environ["PATH"]}}))
    report_path = tmp_path / "report.json"
    terminal = TerminalSession([sys.executable, str(DRIVER), str(spec), str(report_path)])
    try:
        assert terminal.finish() == 0
    finally:
        terminal.close()
    report = json.loads(report_path.read_text())
    assert report["error"]["code"] == {"missing": "NOT_FOUND"}.get(program, "IO")
    assert report["terminal_before"]["foreground"] is True
    assert report["terminal_after"] == report["terminal_before"]


@pytest.mark.parametrize("pty", [False, True], ids=["handoff", "pty"])
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_to_gz_ia_restores_the_terminal(
    terminal_run: Any, pty: bool, sent: signal.Signals
):
    terminal, report_path = terminal_run(HANDOFF_AGENT, pty=pty)
    terminal.read_until(b"READY")
    gz_pid = terminal.process.pid

    os.kill(gz_pid, sent)

    assert terminal.finish() == 0
    report = json.loads(report_path.read_text())
    assert report["outcome"]["received_signal"] == sent
    assert report["outcome"]["signal"] == signal.SIGTERM
    assert report["terminal_after"] == report["terminal_before"]
