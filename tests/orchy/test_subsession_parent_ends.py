"""However a parent's run ends, no sub-session it started is left running (docs/orchy.md,
"Sub-sessions"): a stand-in `claude` starts a child through its own MCP configuration
(the warm server's relay) with the official SDK client, then ends as asked: on its own
(exit 0, exit 3), by Ctrl+C on the person's terminal (a real PTY), by a signal from
outside, by its watchdog; in the foreground and in the background. `session kill
--keep-children` is the one way to leave them running."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from tests.orchy.test_subsessions import _group_alive, record, script, stop_every_running
from tests.run.conftest import agent, bin_dir, gz, gz_start, run_env
from tests.shared_fixtures import repo
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import pid_running, wait_for_note
from tests.supervisor.terminal_session import TerminalSession

__all__ = ["agent", "bin_dir", "gz", "gz_start", "notes", "repo", "run_env"]

DEADLINE = 60.0

STARTS_A_CHILD = """
import asyncio, json
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

args = sys.argv[1:]
server = json.load(open(args[args.index("--mcp-config") + 1]))["mcpServers"]["gz-ia"]

async def start_child():
    params = StdioServerParameters(command=server["command"], args=server["args"],
                                   env={**os.environ, **server.get("env", {})})
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        answer = await client.call_tool("session_start",
                                        {"command": [os.environ["CHILD_COMMAND"]]})
        return json.loads(answer.content[0].text)["id"]

child = asyncio.run(start_child())
note("child", child)
end = os.environ["PARENT_END"]
if end == "completed":
    sys.exit(0)
if end == "failed":
    sys.exit(3)
print("PARENT WAITS", flush=True)
while True:
    time.sleep(1)
"""


@pytest.fixture
def project(repo: Path) -> Iterator[Path]:
    """The repository; every session still running at the end is stopped (and must be)."""
    yield repo
    stop_every_running(repo)


@pytest.fixture
def parent_agent(agent: Callable[[str, str], Path], tmp_path: Path) -> dict[str, str]:
    """The stand-in `claude`; the environment that tells it how to end."""
    agent("claude", STARTS_A_CHILD)
    forker = script(tmp_path, "forker", "sleep 300 &\nwait\n")
    return {"CHILD_COMMAND": forker, "GZ_STOP_TIMEOUT": "2"}


def _wait(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _started_child(root: Path, notes: Path, result: Any) -> str:
    """The child the parent started; when it never did, what the run said and wrote."""
    try:
        return wait_for_note(notes, "child", timeout=DEADLINE)
    except AssertionError:
        runs = SessionStore(find_project(root)).list().records
        logs = {r.id: (r.status, Path(r.log_path).read_bytes()[-2000:] if r.log_path
                       and Path(r.log_path).is_file() else None) for r in runs}
        raise AssertionError(f"no child: exit {result.exit_code}, stdout {result.stdout!r}, "
                             f"stderr {result.stderr!r}, sessions {logs!r}") from None


def _parent_of(root: Path, child: str) -> str:
    parent = record(root, child).parent_id
    assert parent is not None
    return parent


def _assert_child_gone(root: Path, child: str) -> None:
    """The child's run ended, killed, and its process group and holder with it."""
    _wait(lambda: not record(root, child).is_running, f"{child} to end")
    final = record(root, child)
    assert (final.status, final.end_reason) == ("killed", "killed")
    group, holder = final.pgid, final.holder
    assert group and holder is not None
    _wait(lambda: not _group_alive(group), f"{child}'s process group to end")
    _wait(lambda: not pid_running(holder.pid), f"{child}'s holder to end")


@pytest.mark.parametrize(("end", "status", "end_reason"), [
    ("completed", "completed", "process_exit"),
    ("failed", "failed", "process_exit"),
])
@pytest.mark.parametrize("background", [False, True], ids=["foreground", "background"])
def test_a_parent_that_ends_on_its_own_leaves_no_running_child(  # noqa: PLR0917 - fixtures and parameters
        gz: Any, project: Path, parent_agent: dict[str, str], notes: Path, end: str,
        status: str, end_reason: str, background: bool) -> None:
    result = gz("--json", "chat", "-p", "claude", "-i", "go", *(["-b"] if background else []),
                cwd=project, env={**parent_agent, "PARENT_END": end})
    child = _started_child(project, notes, result)
    parent = _parent_of(project, child)
    if not background:
        assert result.exit_code == (0 if end == "completed" else 1), result.stderr
    _wait(lambda: not record(project, parent).is_running, "the parent to end")
    assert (record(project, parent).status, record(project, parent).end_reason) == (
        status, end_reason)
    _assert_child_gone(project, child)


def test_ctrl_c_on_a_foreground_parent_leaves_no_running_child(
        run_env: dict[str, str], project: Path, parent_agent: dict[str, str],
        notes: Path) -> None:
    term = TerminalSession([sys.executable, "-m", "gzia", "chat", "-p", "claude", "-i", "go"],
                           env={**run_env, **parent_agent, "PARENT_END": "wait"},
                           cwd=str(project))
    try:
        term.read_until(b"PARENT WAITS", timeout=DEADLINE)
        child = wait_for_note(notes, "child", timeout=DEADLINE)
        assert record(project, child).is_running
        term.type(b"\x03")
        assert term.finish(timeout=DEADLINE) == 130
    finally:
        term.close()
    parent = record(project, _parent_of(project, child))
    assert (parent.status, parent.signal) == ("killed", signal.SIGINT)
    _assert_child_gone(project, child)


@pytest.mark.parametrize("background", [False, True], ids=["foreground", "background"])
def test_a_parent_killed_by_a_signal_from_outside_leaves_no_running_child(
        gz_start: Any, project: Path, parent_agent: dict[str, str], notes: Path,
        background: bool) -> None:
    """``kill -TERM <agent>`` by anyone: not ``session kill``, so no command sees to the
    children; the run's owner does."""
    started = gz_start("--json", "chat", "-p", "claude", "-i", "go",
                       *(["-b"] if background else []), cwd=project,
                       env={**parent_agent, "PARENT_END": "wait"})
    try:
        child = wait_for_note(notes, "child", timeout=DEADLINE)
        os.kill(int(wait_for_note(notes, "agent.pid")), signal.SIGTERM)
        started.communicate(timeout=DEADLINE)
    finally:
        if started.poll() is None:
            started.kill()
            started.communicate()
    parent = _parent_of(project, child)
    _wait(lambda: not record(project, parent).is_running, "the parent to end")
    assert (record(project, parent).status, record(project, parent).end_reason) == (
        "killed", "signal")
    _assert_child_gone(project, child)


def test_a_foreground_parents_watchdog_leaves_no_running_child(
        gz: Any, project: Path, parent_agent: dict[str, str], notes: Path) -> None:
    result = gz("--json", "chat", "-p", "claude", "-i", "go", "--timeout", "15", cwd=project,
                env={**parent_agent, "PARENT_END": "wait"})
    assert result.json["errors"][0]["code"] == "TIMEOUT", result.stderr
    child = wait_for_note(notes, "child", timeout=DEADLINE)
    assert record(project, _parent_of(project, child)).end_reason == "timeout"
    _assert_child_gone(project, child)


@pytest.mark.parametrize("how", ["kill", "stop"])
def test_keep_children_leaves_them_running_though_the_parent_ended(  # noqa: PLR0917 - fixtures
        gz: Any, gz_start: Any, project: Path, parent_agent: dict[str, str], notes: Path,
        how: str) -> None:
    """The foreground parent's owner sees the end ``session kill``/``stop`` asked for, and
    leaves the children to that command: kept with ``--keep-children``."""
    started = gz_start("chat", "-p", "claude", "-i", "go", cwd=project,
                       env={**parent_agent, "PARENT_END": "wait"})
    try:
        child = wait_for_note(notes, "child", timeout=DEADLINE)
        parent = _parent_of(project, child)
        done = gz("--json", "session", how, parent, "--keep-children", cwd=project,
                  env={"GZ_STOP_TIMEOUT": "2"})
        assert done.exit_code == 0, done.stderr
        started.communicate(timeout=DEADLINE)
    finally:
        if started.poll() is None:
            started.kill()
            started.communicate()
    assert not record(project, parent).is_running
    assert record(project, parent).end_reason in {"killed", "stopped"}
    assert record(project, child).is_running
    assert _group_alive(record(project, child).pgid or 0)  # the fixture stops it
