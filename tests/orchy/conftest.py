"""Fixtures for Orchy: a real project with sessions, and `gz-ia mcp` driven by the SDK client."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import find_project
from tests.plugin_installs import pip_install_target
from tests.sessions.session_testkit import RUNNING_DIRECT, go_record, make_repo, make_session


@dataclass(frozen=True)
class Served:
    root: Path
    isolated: str  # a finished session with its worktree
    direct: str  # a session working in the project itself

    @property
    def worktree(self) -> Path:
        return self.root / ".harness" / "worktrees" / self.isolated


@pytest.fixture
def served(tmp_path: Path) -> Served:
    root = make_repo(tmp_path / "repo")
    project = find_project(root)
    make_session(project, "3f9a1c7e")
    (project.sessions_dir / "0badc0de.json").write_text(go_record(RUNNING_DIRECT, root))
    return Served(root, "3f9a1c7e", "0badc0de")


@pytest.fixture(scope="session")
def example_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/plugins/gzia-example-tools installed by pip into a plugins directory."""
    return pip_install_target("gzia-example-tools", tmp_path_factory.mktemp("tool-plugins"))


GZ_IA = [sys.executable, "-m", "gzia"]
"""How the tests start gz-ia; the pyz tests start the built archive instead."""

@asynccontextmanager
async def mcp_session(command: list[str], *args: str, cwd: Path,
                      env: dict[str, str] | None = None) -> AsyncIterator[Any]:
    """An initialized SDK client session on `<command> mcp <args>` (a real subprocess)."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command[0], args=[*command[1:], "mcp", *args],
                                   env={**os.environ, **(env or {})}, cwd=cwd)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def assert_gone(pid: int) -> None:
    """The program ``pid`` (a tool's, stopped by Orchy) ends within 10 s, or the test fails
    (and the program is killed, not leaked)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return
        if state == "Z":
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    raise AssertionError(f"the tool's program {pid} is still running")
