"""A stop while the run's owner waits for its warm server (docs/orchy.md, "The warm
server") ends the start at once: no agent is started, the server being readied is gone,
its socket too, and the record says ``canceled``. The moment is a real slow condition: a
tool plugin whose boot waits for the test (tests/plugins/gzia-example-tools,
``EXAMPLE_TOOLS_BOOT_GATE``), so the server is not ready until released."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.run.conftest import GzProcess, agent, bin_dir, gz_start, run_env
from tests.shared_fixtures import repo
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import pid_running
from tests.supervisor.terminal_session import TerminalSession

__all__ = ["agent", "bin_dir", "gz_start", "notes", "repo", "run_env"]

DEADLINE = 90.0  # past the owner's 30 s wait for a server that is not ready
NEVER_STARTS = "note('started', 1)\nwhile True:\n    time.sleep(1)\n"


@pytest.fixture
def slow_boot(example_tools: Path, tmp_path: Path,
              agent: Callable[[str, str], Path]) -> Iterator[tuple[Path, dict[str, str]]]:
    """The gate where the server's slow plugin waits; the environment that installs it.
    Released at the end, so a server left behind (by a failing test) ends too."""
    agent("claude", NEVER_STARTS)
    gate = tmp_path / "gate"
    gate.mkdir()
    yield gate, {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_BOOT_GATE": str(gate)}
    (gate / "boot-release").touch()


def _booting(gate: Path) -> int:
    """The pid of the server whose plugin is booting (it is not ready)."""
    deadline = time.monotonic() + DEADLINE
    while not (gate / "booting").exists():
        assert time.monotonic() < deadline, "the warm server never started booting"
        time.sleep(0.02)
    return int((gate / "booting").read_text())


def _only_record(repo: Path) -> SessionRecord:
    store = SessionStore(find_project(repo))
    [session] = [path.stem for path in (repo / ".harness" / "sessions").glob("*.json")]
    return store.load(session)


def _assert_canceled_and_nothing_left(repo: Path, notes: Path, server: int) -> None:
    record = _only_record(repo)
    assert (record.status, record.end_reason, record.pid or None) == ("killed", "canceled", None)
    assert not (notes / "started").exists()  # the agent never ran
    deadline = time.monotonic() + 10
    while pid_running(server) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not pid_running(server), "the warm server outlived the canceled start"


def test_ctrl_c_while_the_warm_server_gets_ready_cancels_at_once(
        run_env: dict[str, str], repo: Path, notes: Path,
        slow_boot: tuple[Path, dict[str, str]]) -> None:
    gate, env = slow_boot
    term = TerminalSession([sys.executable, "-m", "gzia", "chat", "-p", "claude", "-i", "go"],
                           env={**run_env, **env}, cwd=str(repo))
    try:
        server = _booting(gate)
        term.type(b"\x03")
        assert term.finish(timeout=DEADLINE) == 130
    finally:
        term.close()
    _assert_canceled_and_nothing_left(repo, notes, server)


def test_sigterm_to_a_holder_while_its_warm_server_gets_ready_cancels_at_once(
        gz_start: GzProcess, repo: Path, notes: Path,
        slow_boot: tuple[Path, dict[str, str]]) -> None:
    gate, env = slow_boot
    started = gz_start("--json", "chat", "-b", "-p", "claude", "-i", "go", cwd=repo, env=env)
    try:
        server = _booting(gate)
        holder = _only_record(repo).owner_pid
        assert holder is not None
        os.kill(holder, signal.SIGTERM)
        out, _ = started.communicate(timeout=DEADLINE)
        assert started.returncode != 0, out
    finally:
        if started.poll() is None:
            started.kill()
            started.communicate()
    _assert_canceled_and_nothing_left(repo, notes, server)
