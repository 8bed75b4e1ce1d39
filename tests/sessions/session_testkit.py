"""Helpers for the session tests: git repositories, and records as the original Go
gz-ia wrote them (its §2.2 schema, indented JSON)."""

from __future__ import annotations

import subprocess
from pathlib import Path

COMPLETED_ISOLATED = """{
  "id": "3f9a1c7e",
  "pid": 48213,
  "provider": "claude",
  "status": "completed",
  "permission_level": "supervised",
  "working_dir": "{root}",
  "initial_prompt": "Arregla los tests",
  "started_at": "2025-06-01T10:15:30.123456789+02:00",
  "finished_at": "2025-06-01T10:20:31.987654321+02:00",
  "duration_ms": 301864,
  "exit_code": 0,
  "is_isolated": true,
  "worktree_dir": "{root}/.harness/worktrees/3f9a1c7e",
  "branch_name": "harness/3f9a1c7e",
  "profiles": [
    "backend"
  ]
}"""

RUNNING_DIRECT = """{
  "id": "0badc0de",
  "pid": 0,
  "provider": "agy",
  "status": "running",
  "permission_level": "readonly",
  "working_dir": "{root}",
  "started_at": "2025-05-30T08:00:00Z",
  "exit_code": 0,
  "is_isolated": false
}"""


def go_record(template: str, root: object) -> str:
    return template.replace("{root}", str(root))


def run_git(cwd: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {args} failed: {done.stderr}")
    return done.stdout


def make_repo(path: Path, *, commit: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    run_git(path, "init", "-q", "-b", "main")
    if commit:
        (path / "README.md").write_text("hello\n")
        run_git(path, "add", "README.md")
        run_git(path, "commit", "-q", "-m", "initial")
    return path
