"""``exec -b``: the record comes back at once, running; a detached holder owns the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import (
    holder_pid,
    start_background,
    stored,
    wait_final,
    wait_until,
)
from tests.conftest import Result
from tests.run.conftest import GzProcess
from tests.supervisor.fakes import pid_running, wait_for_note

WAIT_FOR_GO = """
note("ready", 1)
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "go")):
    time.sleep(0.02)
print("agent done")
"""

IDS = """
note("ids", f"{os.getpid()} {os.getpgrp()} {os.getsid(0)} {os.isatty(0)}")
"""


def _cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def without(record: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in keys}


def test_exec_background_returns_running_record_and_finishes(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAIT_FOR_GO)
    data = start_background(gz, repo, "waiter")
    assert data["status"] == "running"
    assert data["mode"] == "exec"
    assert data["pid"] > 0 and data["pgid"] == data["pid"]
    assert data["log_path"] == str(repo / ".harness" / "logs" / f"{data['id']}.log")
    assert set(data["holder"]) == {"pid", "start_time", "socket"}
    assert len(os.fsencode(data["holder"]["socket"])) < 100
    assert pid_running(data["pid"]) and pid_running(holder_pid(data))
    live = ("state", "state_since", "updated_at")  # the agent's state moves on meanwhile
    assert without(stored(repo, data["id"]), live) == without(data, live)  # as printed
    (notes / "go").write_text("1")
    final = wait_final(repo, data["id"])
    assert (final["status"], final["end_reason"], final["exit_code"]) == (
        "completed", "process_exit", 0)
    assert b"agent done" in Path(data["log_path"]).read_bytes()
    wait_until(lambda: not pid_running(holder_pid(data)), what="the holder to exit")
    assert not Path(data["holder"]["socket"]).exists()


def test_agent_gets_default_signals_own_group_and_a_terminal(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    # grep, not a Python agent: Python itself ignores SIGPIPE and SIGXFSZ at start-up.
    data = start_background(gz, repo, "grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status")
    wait_final(repo, data["id"])
    assert Path(data["log_path"]).read_bytes() == (
        b"SigBlk:\t0000000000000000\r\nSigIgn:\t0000000000000000\r\n")
    agent("ids", IDS)
    data = start_background(gz, repo, "ids")
    wait_final(repo, data["id"])
    pid, pgid, sid, tty = wait_for_note(notes, "ids").split()
    assert pid == pgid == sid == str(data["pid"])
    assert tty == "True"


def test_holder_is_detached_ignores_sighup_and_runs_this_gzia(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAIT_FOR_GO)
    data = start_background(gz, repo, "waiter")
    holder = holder_pid(data)
    assert os.getsid(holder) == holder  # its own session: no controlling terminal
    assert _cmdline(holder) == [sys.executable, "-P", "-m", "gzia", "__holder__"]
    os.kill(holder, signal.SIGHUP)
    time.sleep(0.3)
    assert pid_running(holder) and pid_running(data["pid"])
    (notes / "go").write_text("1")
    assert wait_final(repo, data["id"])["status"] == "completed"


def test_run_survives_sigkill_of_the_starting_command(
    gz_start: GzProcess, repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAIT_FOR_GO)
    starter = gz_start("--json", "exec", "-b", "--", "waiter", cwd=repo)
    wait_for_note(notes, "ready", timeout=30)
    starter.kill()  # whether it already returned or not
    starter.communicate(timeout=10)
    session = wait_until(lambda: [p.stem for p in (repo / ".harness/sessions").glob("*.json")])
    record = wait_until(lambda: (r := stored(repo, session[0]))["pid"] and r, what="a pid")
    time.sleep(0.2)
    assert pid_running(record["pid"])
    (notes / "go").write_text("1")
    final = wait_final(repo, record["id"])
    assert (final["status"], final["exit_code"]) == ("completed", 0)


def test_started_in_process_holder_runs_as_module(
    cli: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
    run_env: dict[str, str],
) -> None:
    agent("waiter", WAIT_FOR_GO)
    result = cli("--json", "exec", "-b", "--", "waiter", cwd=repo, env=run_env)
    assert result.exit_code == 0, result
    data = result.json["data"]
    assert _cmdline(holder_pid(data))[1:] == ["-P", "-m", "gzia", "__holder__"]
    (notes / "go").write_text("1")
    assert wait_final(repo, data["id"])["status"] == "completed"


def test_program_that_cannot_start_fails_with_the_record(
    gz: Callable[..., Result], repo: Path, bin_dir: Path,
) -> None:
    script = bin_dir / "garbage"  # executable, but no program the system can start
    script.write_bytes(b"\x7fELF not really\n")
    script.chmod(0o755)
    result = gz("--json", "exec", "-b", "--", str(script), cwd=repo)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert error["code"] == "IO"
    assert error["message"] == f"'{script}' cannot be started: Exec format error"
    foreground = gz("--json", "exec", "--", str(script), cwd=repo)
    assert foreground.json["errors"][0]["message"] == error["message"]
    data = result.json["data"]
    assert (data["status"], data["end_reason"]) == ("failed", "spawn_failed")


def test_exec_background_from_the_pyz(
    pyz: Path, repo: Path, agent: Callable[[str, str], Path], notes: Path,
    run_env: dict[str, str],
) -> None:
    agent("waiter", WAIT_FOR_GO)
    done = subprocess.run([sys.executable, str(pyz), "--json", "exec", "-b", "--", "waiter"],
                          cwd=repo, env=run_env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    data = Result(0, done.stdout, done.stderr).json["data"]
    assert _cmdline(holder_pid(data)) == [sys.executable, str(pyz), "__holder__"]
    (notes / "go").write_text("1")
    assert wait_final(repo, data["id"])["status"] == "completed"


@pytest.mark.parametrize(("env", "lines"), [
    ({}, ["● Session '{id}' is running in the background (PID {pid}).",
          "  Output: gz-ia session output {id} -f   Attach: gz-ia session attach {id}"
          "   Stop: gz-ia session kill {id}"]),
    ({"GZ_LANG": "es"}, ["● La sesión '{id}' se ejecuta en segundo plano (PID {pid}).",
                         "  Salida: gz-ia session output {id} -f   Conectarse: gz-ia session "
                         "attach {id}   Detener: gz-ia session kill {id}"]),
])
def test_human_output_says_where_to_go_next(
    gz: Callable[..., Result], repo: Path, env: dict[str, str], lines: list[str],
) -> None:
    result = gz("exec", "-b", "--", "true", cwd=repo, env=env)
    assert result.exit_code == 0
    [record] = [json.loads(p.read_text()) for p in (repo / ".harness/sessions").glob("*.json")]
    assert result.stdout == "".join(
        line.format(id=record["id"], pid=record["pid"]) + "\n" for line in lines)
    assert result.stderr == ""
    wait_final(repo, record["id"])
