"""run_supervised in its own process (as gz-ia runs it), with real agents and signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.supervisor.fakes import noted_pids, pid_running, wait_for_note, write_agent

DRIVER = Path(__file__).with_name("drive_supervised.py")


class Run:
    def __init__(self, tmp_path: Path, notes: Path, body: str, **spec: Any) -> None:
        agent = write_agent(tmp_path / "agent", body)
        self.report_path = tmp_path / "report.json"
        spec_path = tmp_path / "spec.json"
        env = {"PATH": os.environ["PATH"], "FAKE_NOTES": str(notes)}
        spec_path.write_text(json.dumps({"argv": [str(agent)], "cwd": str(tmp_path),
                                         "env": env, **spec}))
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(spec_path), str(self.report_path)],
            stdin=spec.pop("stdin", subprocess.DEVNULL), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
        )

    def finish(self, stdin: bytes | None = None) -> dict[str, Any]:
        out, err = self.process.communicate(stdin, timeout=30)
        assert self.process.returncode == 0, err.decode()
        self.stdout = out.decode()
        report: dict[str, Any] = json.loads(self.report_path.read_text())
        return report


def outcome(report: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = report["outcome"]
    assert report["started"] == {"pid": result["pid"], "pgid": result["pid"],
                                 "getpgid": result["pid"]}
    assert result["pgid"] != report["gz_pid"]
    return {k: result[k] for k in ("exit_code", "signal", "end_reason", "received_signal")}


def test_exit_code_of_the_agent_is_reported(tmp_path: Path, notes: Path):
    report = Run(tmp_path, notes, "sys.exit(3)\n").finish()
    assert outcome(report) == {"exit_code": 3, "signal": None, "end_reason": "process_exit",
                               "received_signal": None}


def test_agent_dying_of_a_signal_is_reported(tmp_path: Path, notes: Path):
    report = Run(tmp_path, notes, "os.kill(os.getpid(), signal.SIGINT)\ntime.sleep(5)\n").finish()
    assert outcome(report) == {"exit_code": None, "signal": 2, "end_reason": "signal",
                               "received_signal": None}


def test_leftover_grandchild_is_stopped_when_the_agent_exits(tmp_path: Path, notes: Path):
    body = "fork_grandchild()\nwhile not os.path.exists(os.path.join(os.environ['FAKE_NOTES'], " \
           "'grandchild.pid')):\n    time.sleep(0.01)\n"
    report = Run(tmp_path, notes, body).finish()
    assert outcome(report)["exit_code"] == 0
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


@pytest.mark.parametrize(
    ("sent", "agent_ignores_term", "died_of"),
    [
        (signal.SIGTERM, True, signal.SIGKILL),
        (signal.SIGTERM, False, signal.SIGTERM),
        (signal.SIGHUP, False, signal.SIGTERM),
        (signal.SIGINT, False, signal.SIGINT),
    ],
)
def test_signal_to_gz_ia_is_forwarded_then_escalated(
    tmp_path: Path, notes: Path, sent: int, agent_ignores_term: bool, died_of: int
):
    body = ("ignore_term()\n" if agent_ignores_term else "") + \
        "fork_grandchild()\nnote('ready', 1)\nwhile True:\n    time.sleep(1)\n"
    run = Run(tmp_path, notes, body)
    wait_for_note(notes, "ready")
    wait_for_note(notes, "grandchild.pid")
    run.process.send_signal(sent)
    report = run.finish()
    assert outcome(report) == {"exit_code": None, "signal": died_of, "end_reason": "canceled",
                               "received_signal": sent}
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []


def test_watchdog_timeout_stops_the_agent(tmp_path: Path, notes: Path):
    report = Run(tmp_path, notes, "time.sleep(30)\n", timeout_s=0.3).finish()
    assert outcome(report) == {"exit_code": None, "signal": 15, "end_reason": "timeout",
                               "received_signal": None}


def test_missing_program_is_not_found(tmp_path: Path, notes: Path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"argv": ["no-such-agent-xyz"], "cwd": str(tmp_path),
                                "env": {"PATH": str(tmp_path)}}))
    subprocess.run([sys.executable, str(DRIVER), str(spec), str(tmp_path / "r.json")],
                   check=True, timeout=30)
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["error"] == {"code": "NOT_FOUND",
                               "message": "executable 'no-such-agent-xyz' not found in PATH"}


def test_pty_run_gives_the_agent_a_terminal_and_logs_its_output(tmp_path: Path, notes: Path):
    body = "print('tty', os.isatty(0), os.isatty(1), flush=True)\nline = sys.stdin.readline()\n" \
           "print('got', line.strip(), flush=True)\n"
    log = tmp_path / "logs" / "agent.log"
    run = Run(tmp_path, notes, body, pty=True, log_path=str(log), stdin=subprocess.PIPE)
    started = time.monotonic()
    report = run.finish(b"hello\n")
    assert time.monotonic() - started < 20
    assert outcome(report)["exit_code"] == 0
    assert "tty True True" in run.stdout
    assert "got hello" in run.stdout
    assert log.read_bytes().decode() == run.stdout


ESCAPEE_KEEPS_WRITING = """
if os.fork() == 0:
    os.setsid()  # out of the agent's group: a group kill cannot reach it (documented limit)
    note("escapee.pid", os.getpid())
    end = time.monotonic() + 20
    while time.monotonic() < end:
        print("escapee still writing", flush=True)
        time.sleep(0.01)
    os._exit(0)
wait_for("escapee.pid")
print("agent done", flush=True)
"""


def test_a_pty_run_ends_even_if_an_escaped_process_keeps_writing(tmp_path: Path, notes: Path):
    run = Run(tmp_path, notes, "def wait_for(name):\n"
                               "    while not os.path.exists(os.path.join("
                               "os.environ['FAKE_NOTES'], name)):\n"
                               "        time.sleep(0.01)\n" + ESCAPEE_KEEPS_WRITING, pty=True)
    started = time.monotonic()
    try:
        report = run.finish()
    finally:
        escapee = int(wait_for_note(notes, "escapee.pid"))
        os.kill(escapee, signal.SIGKILL)  # it was ours
        deadline = time.monotonic() + 5
        while pid_running(escapee) and time.monotonic() < deadline:
            time.sleep(0.01)

    assert time.monotonic() - started < 8
    assert outcome(report)["exit_code"] == 0
    assert "agent done" in run.stdout


CLEANS_UP_ON_SIGTERM = """
def clean_up(signum, frame):
    note("cleaned-up", 1)
    sys.exit(0)
signal.signal(signal.SIGTERM, clean_up)
note("ready", 1)
while True:
    time.sleep(1)
"""


def test_a_stopped_agent_is_continued_to_act_on_the_forwarded_sigterm(
    tmp_path: Path, notes: Path
):
    run = Run(tmp_path, notes, CLEANS_UP_ON_SIGTERM, grace_ms=3000)
    agent_pid = int(wait_for_note(notes, "agent.pid"))
    wait_for_note(notes, "ready")
    os.killpg(agent_pid, signal.SIGSTOP)

    run.process.send_signal(signal.SIGTERM)

    report = run.finish()
    assert outcome(report) == {"exit_code": 0, "signal": None,
                               "end_reason": "canceled", "received_signal": signal.SIGTERM}
    assert (notes / "cleaned-up").exists()
