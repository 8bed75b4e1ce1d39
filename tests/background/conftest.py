"""Fixtures for background runs: the run fixtures, plus a teardown that no holder outlives."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import agent, bin_dir, gz, gz_start, repo, run_env
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import pid_running

__all__ = ["agent", "bin_dir", "gz", "gz_start", "notes", "repo", "run_env"]


def records(root: Path) -> list[dict[str, Any]]:
    directory = root / ".harness" / "sessions"
    if not directory.is_dir():
        return []
    return [json.loads(path.read_text()) for path in sorted(directory.glob("*.json"))]


def holder_pid(record: dict[str, Any]) -> int:
    return int(record["holder"]["pid"])


@pytest.fixture(autouse=True)
def no_holder_left(repo: Path) -> Iterator[None]:
    """After each test every holder must be gone (a leftover one is killed, then reported)."""
    yield
    deadline = time.monotonic() + 10
    leftovers = _running_holders(repo)
    while leftovers and time.monotonic() < deadline:
        time.sleep(0.05)
        leftovers = _running_holders(repo)
    for record in leftovers:
        for pid in (record["pid"], holder_pid(record)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
    assert not leftovers, f"holders outlived the test: {[r['id'] for r in leftovers]}"


def _running_holders(root: Path) -> list[dict[str, Any]]:
    return [r for r in records(root) if "holder" in r and pid_running(holder_pid(r))]


def wait_until(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def stored(root: Path, session_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (root / ".harness" / "sessions" / f"{session_id}.json").read_text())
    return data


def wait_final(root: Path, session_id: str, timeout: float = 20.0) -> dict[str, Any]:
    def final() -> dict[str, Any] | None:
        record = stored(root, session_id)
        return record if record["status"] != "running" else None

    result: dict[str, Any] = wait_until(final, timeout, f"session {session_id} to end")
    return result


def start_background(gz: Callable[..., Result], repo: Path, *command: str,
                     options: tuple[str, ...] = ()) -> dict[str, Any]:
    result = gz("--json", "exec", "-b", *options, "--", *command, cwd=repo)
    assert result.exit_code == 0, result
    data: dict[str, Any] = result.json["data"]
    return data
