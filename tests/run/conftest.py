"""Fixtures for session runs: a real git repository, fake agents, gz-ia as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.orchy.preapproved import read_only_tools
from tests import shared_fixtures
from tests.conftest import Result
from tests.shared_fixtures import repo
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import write_agent

__all__ = ["notes", "repo"]

GzProcess = Callable[..., subprocess.Popen[str]]


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd``; its output without the surrounding blank space."""
    return shared_fixtures.git(cwd, *args).strip()


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "bin"
    directory.mkdir()
    return directory


@pytest.fixture
def agent(bin_dir: Path) -> Callable[[str, str], Path]:
    """Write a fake agent called ``name`` into the test's PATH directory."""

    def make(name: str, body: str) -> Path:
        return write_agent(bin_dir / name, body)

    return make


@pytest.fixture
def run_env(bin_dir: Path, notes: Path) -> dict[str, str]:
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "FAKE_NOTES": str(notes)}


@pytest.fixture
def gz_start(run_env: dict[str, str]) -> GzProcess:
    """Start ``python -m gzia ARGS`` as a real process in its own session."""

    def start(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "gzia", *args], cwd=cwd, env={**run_env, **(env or {})},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, start_new_session=True,
        )

    return start


@pytest.fixture
def gz(gz_start: GzProcess) -> Callable[..., Result]:
    def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
        process = gz_start(*args, cwd=cwd, env=env)
        out, err = process.communicate(timeout=60)
        return Result(process.returncode, out, err)

    return run


DYNAMIC = ("id", "pid", "pgid", "pid_start_time", "owner_pid", "owner_start_time", "started_at",
           "finished_at", "updated_at", "duration_ms", "base_commit", "worktree_dir",
           "branch_name", "conversation_id", "state_since", "log_path")


def normalized(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its run-specific values replaced by what they must look like."""
    result = dict(record)
    session_id = record["id"]
    assert len(session_id) == 8
    for key in DYNAMIC:
        value = record.get(key)
        if key == "worktree_dir" and value is not None:
            assert value.endswith(f"/.harness/worktrees/{session_id}")
        if key == "branch_name" and value is not None:
            assert value == f"harness/{session_id}"
        result[key] = None if value is None else f"<{key}>"
    return result


def stored_record(root: Path, session_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (root / ".harness" / "sessions" / f"{session_id}.json").read_text()
    )
    return data


def claude_state_settings(root: Path, session_id: str, *, prompt: bool,
                          preapproved: bool = True) -> list[str]:
    """The ``--settings`` a session's Claude Code gets: its state hooks, in exec form
    (``gz-ia __hook__ <root> <id> claude``, no shell); ``SessionStart`` only without a
    prompt; ``preapproved``: gz-ia's read-only tools allowed without asking (a supervised
    session with gz-ia's server)."""
    command = {"type": "command", "command": sys.executable,
               "args": ["-P", "-m", "gzia", "__hook__", str(root), session_id, "claude"],
               "timeout": 10}
    events = ["UserPromptSubmit", "PostToolUse", "Stop", *([] if prompt else ["SessionStart"]),
              "Notification", "PermissionRequest"]
    settings: dict[str, Any] = {"hooks": {event: [{"hooks": [command]}] for event in events}}
    if preapproved:
        settings["permissions"] = {"allow": [f"mcp__gz-ia__{tool}"
                                             for tool in read_only_tools()]}
    return ["--settings", json.dumps(settings, separators=(",", ":"))]
