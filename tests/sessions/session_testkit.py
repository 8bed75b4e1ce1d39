"""Helpers for the session tests: git repositories, and records as the original Go
gz-ia wrote them (its §2.2 schema, indented JSON)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import prepare_workspace

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


def make_session(
    project: Project,
    session_id: str,
    *,
    status: str = "completed",
    started_at: str = "2026-03-01T10:00:00Z",
    **fields: Any,
) -> SessionRecord:
    """A finished session as the supervisor leaves it: record plus prepared workspace."""
    store = SessionStore(project)
    record = SessionRecord(id=session_id, provider="shell", started_at=started_at, **fields)
    store.create(record)
    workspace = prepare_workspace(project, session_id)

    def finish(r: SessionRecord) -> None:
        workspace.apply_to(r)
        r.status = status
        if status not in ("running", "lost"):  # a finished one has its exit code
            r.exit_code = fields.get("exit_code", 0)
        if status != "running":
            r.finished_at, r.duration_ms, r.end_reason = (
                "2026-03-01T10:01:05Z", 65000, "process_exit")

    return store.update(session_id, finish)


def commit_file(directory: Path, name: str, content: str, message: str = "change") -> None:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    run_git(directory, "add", name)
    run_git(directory, "commit", "-q", "-m", message)


def run_on_terminal(argv: list[str], *, cwd: Path | None = None) -> tuple[int, bytes]:
    """Run ``argv`` with stdout and stderr on a real PTY: its exit code and what the
    terminal received."""
    import os
    import pty

    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=secondary,
                              stderr=secondary, cwd=cwd, timeout=60, check=False)
        os.close(secondary)
        received = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the terminal's other side is closed
                break
            if not chunk:
                break
            received += chunk
    finally:
        os.close(primary)
    return done.returncode, received
