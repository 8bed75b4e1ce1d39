"""A crafted record (records can arrive as tracked files of a cloned repository) never makes
``session kill`` signal gz-ia's caller, its parents, or a process it cannot prove to be the
agent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.supervisor.procinfo import process_start_time
from tests.conftest import Result
from tests.run.conftest import stored_record
from tests.run.test_kill_target import SESSION, SLEEPS, Started, started  # noqa: F401

WRITE_RECORD = r"""
import json, os, sys
record, pid, with_start_time = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
data = {"id": os.path.basename(record)[:8], "pid": pid, "provider": "claude",
        "status": "running", "permission_level": "supervised", "working_dir": os.getcwd(),
        "started_at": "2025-06-01T10:15:30Z", "exit_code": 0, "is_isolated": False}
if with_start_time:  # a record that even names the shell's real start time and group
    stat = open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1].split()
    data.update(pid_start_time=stat[19], pgid=os.getpgid(pid), schema_version=2)
os.makedirs(os.path.dirname(record), exist_ok=True)
with open(record, "w") as handle:
    json.dump(data, handle)
"""
CALLER_SHELL = """
"$PY" -c "$WRITE_RECORD" "$RECORD" $$ "$WITH_START_TIME" || exit 99
"$PY" -m gzia --json session kill "$@" > "$OUT" 2>&1
echo "gz-ia exited $?"
"""
"""The caller, a real shell: writes a record naming itself (``$$``), then runs
``session kill`` on it as its child and says how that ended (if it is still alive)."""


@pytest.mark.parametrize("with_start_time", [False, True], ids=["original", "with-start"])
@pytest.mark.parametrize("flags", [(), ("--force",)], ids=["plain", "force"])
def test_a_record_naming_the_callers_shell_is_refused_and_the_caller_lives(
    repo: Path, tmp_path: Path, flags: tuple[str, ...], with_start_time: bool
) -> None:
    record, out = repo / ".harness" / "sessions" / f"{SESSION}.json", tmp_path / "out"
    env = {**os.environ, "PY": sys.executable, "WRITE_RECORD": WRITE_RECORD,
           "RECORD": str(record), "OUT": str(out), "WITH_START_TIME": str(int(with_start_time))}
    caller = subprocess.Popen(["/bin/sh", "-c", CALLER_SHELL, "sh", *flags, SESSION],
                              env=env, cwd=repo, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, process_group=0)
    said, err = caller.communicate(timeout=60)
    assert (caller.returncode, said) == (0, "gz-ia exited 1\n"), err  # never signalled
    pid = json.loads(record.read_text())["pid"]
    assert pid == caller.pid
    assert json.loads(out.read_text()) == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "SAFETY_BLOCK", "retryable": False, "hint": None,
        "message": f"session '{SESSION}' names PID {pid}, a process gz-ia runs under (its "
                   "caller or one of its parents), which gz-ia never signals; the record "
                   "was left as it is",
        "details": {"id": SESSION, "pid": pid}}]}
    assert json.loads(record.read_text())["status"] == "running"


def write_original_record(repo: Path, pid: int, extras: dict[str, Any] | None = None) -> None:
    record = repo / ".harness" / "sessions" / f"{SESSION}.json"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({
        "id": SESSION, "pid": pid, "provider": "claude", "status": "running",
        "permission_level": "supervised", "working_dir": str(repo),
        "started_at": "2025-06-01T10:15:30Z", "exit_code": 0, "is_isolated": False,
        **(extras or {})}))


def test_a_record_without_start_time_naming_another_program_needs_force(
    gz: Callable[..., Result], repo: Path, started: Started  # noqa: F811
) -> None:
    bystander = started.python(SLEEPS, own_group=True)
    write_original_record(repo, bystander.pid)
    before = stored_record(repo, SESSION)
    raw = Path(f"/proc/{bystander.pid}/cmdline").read_bytes().decode()
    command = " ".join(arg for arg in raw.split("\0") if arg)

    english = gz("--json", "session", "kill", SESSION, cwd=repo)
    spanish = gz("session", "kill", SESSION, cwd=repo, env={"GZ_LANG": "es"})

    assert english.exit_code == 1
    assert english.json["errors"] == [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"session '{SESSION}' has no start time to prove that PID {bystander.pid} "
                   f"is still its agent, and that process ({command}) runs none of the "
                   "agent's programs (claude): nothing was signalled",
        "hint": f"if PID {bystander.pid} is the agent: gz-ia session kill --force {SESSION}",
        "details": {"id": SESSION, "pid": bystander.pid, "command": command,
                    "expected": ["claude"]}}]
    assert spanish.exit_code == 1
    assert spanish.stderr.startswith(
        f"Error: la sesión '{SESSION}' no tiene hora de inicio que pruebe que el PID "
        f"{bystander.pid} sigue siendo su agente, y ese proceso (")
    assert spanish.stderr.endswith(
        "no ejecuta ninguno de los programas del agente (claude): no se envió ninguna señal\n"
        f"si el PID {bystander.pid} es el agente: gz-ia session kill --force {SESSION}\n")
    assert bystander.poll() is None
    assert stored_record(repo, SESSION) == before

    forced = gz("--json", "session", "kill", "--force", SESSION, cwd=repo)
    assert forced.exit_code == 0, forced.stderr
    assert bystander.wait(5) == -signal.SIGTERM


def test_a_record_without_start_time_whose_process_runs_the_exec_command_is_killed(
    gz: Callable[..., Result], repo: Path, tmp_path: Path, started: Started  # noqa: F811
) -> None:
    """``exec`` records name their command: a process running it needs no --force."""
    program = tmp_path / "my-agent"
    program.write_text(f"#!{sys.executable}\n{SLEEPS}")
    program.chmod(0o755)
    agent = subprocess.Popen([str(program)], stdout=subprocess.PIPE, text=True,
                             process_group=0)
    started.add(agent, own_group=True)
    assert agent.stdout is not None
    agent.stdout.readline()
    assert process_start_time(agent.pid) is not None
    write_original_record(repo, agent.pid, {"provider": "shell", "command": [str(program)]})

    result = gz("--json", "session", "kill", SESSION, cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["status"] == "killed"
    assert agent.wait(5) == -signal.SIGTERM
