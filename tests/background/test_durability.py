"""Background runs under stress: an escaped grandchild, twenty sessions at once."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import holder_pid, records, start_background, wait_until
from tests.conftest import Result
from tests.supervisor.fakes import pid_running, wait_for_note

ESCAPING_GRANDCHILD = """
pid = os.fork()
if pid == 0:
    os.setsid()  # leaves the agent's group: out of reach of the tree kill
    note("escaped.pid", os.getpid())
    time.sleep(60)
    os._exit(0)
wait_for = os.path.join(os.environ["FAKE_NOTES"], "escaped.pid")
while not os.path.exists(wait_for):
    time.sleep(0.01)
print("agent leaves", flush=True)
"""


def test_a_grandchild_holding_the_terminal_hangs_nothing(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("leaver", ESCAPING_GRANDCHILD)
    began = time.monotonic()
    data = start_background(gz, repo, "leaver")
    escaped = int(wait_for_note(notes, "escaped.pid"))
    try:
        final = wait_until(lambda: (r := records(repo)[0])["status"] != "running" and r,
                           timeout=20, what="the final record")
        assert (final["status"], final["exit_code"]) == ("completed", 0)
        wait_until(lambda: not pid_running(holder_pid(data)), what="the holder to exit")
        assert time.monotonic() - began < 15
        assert pid_running(escaped)  # the documented limit: it left the group on purpose
        assert b"agent leaves" in Path(data["log_path"]).read_bytes()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(escaped, signal.SIGKILL)
        wait_until(lambda: not pid_running(escaped), what="the escaped grandchild to die")


def test_twenty_background_sessions_at_once(repo: Path, run_env: dict[str, str]) -> None:
    starters = [
        subprocess.Popen([sys.executable, "-m", "gzia", "--json", "exec", "-b", "--", "sh",
                          "-c", f"sleep 1; echo session-{n}"],
                         cwd=repo, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
        for n in range(20)
    ]
    for starter in starters:
        out, _ = starter.communicate(timeout=180)
        assert starter.returncode == 0, out
    wait_until(lambda: all(r["status"] != "running" for r in records(repo)), timeout=120,
               what="all twenty to finish")
    found = records(repo)
    assert len(found) == 20 and len({r["id"] for r in found}) == 20
    assert {(r["status"], r["end_reason"], r["exit_code"]) for r in found} == {
        ("completed", "process_exit", 0)}
    outputs = sorted(Path(r["log_path"]).read_bytes() for r in found)
    assert outputs == sorted(f"session-{n}\r\n".encode() for n in range(20))
    assert len({r["holder"]["socket"] for r in found}) == 20
