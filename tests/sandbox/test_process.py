"""A sandboxed session is still a session: background runs, output, keys, and a kill that
leaves no process of the sandbox, even one that left the agent's process group."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.background.conftest import start_background, wait_final, wait_until
from tests.conftest import Result

Gz = Callable[..., Result]

SLEEPER = """
import signal, time
if os.fork() == 0:  # a grandchild in a session of its own, deaf to SIGTERM
    os.setsid()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)
print("ready for input", flush=True)
line = sys.stdin.readline()
print("agent read " + line.strip(), flush=True)
while True:
    time.sleep(1)
"""


def processes_with(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                found.append(int(name))
    return found


def test_a_background_sandbox_takes_keys_and_dies_whole_on_kill(
        gz: Gz, probe: Any, repo: Path) -> None:
    marker = f"sleeper-{uuid.uuid4().hex[:8]}"
    probe(marker, SLEEPER)
    record = start_background(gz, repo, marker, options=("--sandbox",))
    session = record["id"]
    assert record["sandbox"]["network"] == "allowlist"

    def output() -> str:
        return gz("session", "output", session, cwd=repo).stdout

    wait_until(lambda: "ready for input" in output(), what="the agent to start")
    assert processes_with(marker)
    assert gz("session", "send-keys", session, "hello", "Enter", cwd=repo).exit_code == 0
    wait_until(lambda: "agent read hello" in output(), what="the agent to read its keys")

    killed = gz("--json", "session", "kill", session, cwd=repo)

    assert killed.exit_code == 0, killed.stderr
    final = wait_final(repo, session)
    assert (final["status"], final["end_reason"]) == ("killed", "killed")
    wait_until(lambda: not processes_with(marker), what="every process of the sandbox to end")
