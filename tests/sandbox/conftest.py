"""Fixtures for sandboxed sessions: the run fixtures, real bubblewrap, and stand-in agents
that write what they could and could not do into a report in their worktree."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import no_holder_left
from tests.fakes.fixtures import http_proxy
from tests.run.conftest import agent, bin_dir, gz, gz_start, notes, repo, run_env

__all__ = ["agent", "bin_dir", "gz", "gz_start", "http_proxy", "no_holder_left", "notes", "repo",
           "run_env"]

if shutil.which("bwrap") is None:  # .ci/run installs it; a bare developer machine may not
    pytest.skip("bubblewrap (bwrap) is not installed", allow_module_level=True)

REPORT = "sandbox-report.json"
PROBE_PRELUDE = f"""#!{sys.executable}
import json, os, subprocess, sys
results = {{}}

def attempt(name, action):
    try:
        action()
        results[name] = "ok"
    except OSError as exc:
        results[name] = exc.strerror

def write(path):
    with open(path, "w") as handle:
        handle.write("written from the sandbox")

def read(path):
    with open(path, "rb") as handle:
        handle.read()

def git(*args):
    done = subprocess.run(["git", *args], capture_output=True, text=True)
    return "ok" if done.returncode == 0 else "refused"

def report():
    with open({REPORT!r}, "w") as handle:
        json.dump(results, handle)
"""


@pytest.fixture
def probe(bin_dir: Path) -> Callable[[str, str], Path]:
    """A stand-in agent ``name``: the prelude's helpers, then ``body``."""

    def make(name: str, body: str) -> Path:
        path = bin_dir / name
        path.write_text(PROBE_PRELUDE + body)
        path.chmod(0o755)
        return path

    return make


def report_of(repo: Path, record: dict[str, Any]) -> dict[str, str]:
    """What the agent wrote into its worktree (the branch keeps it when it committed)."""
    worktree = repo / ".harness" / "worktrees" / record["id"]
    data: dict[str, str] = json.loads((worktree / REPORT).read_text())
    return data
