"""A directory under .harness/worktrees/ that git cannot read is never removed on the
word of a git status that describes another work tree: delete and prune keep it unless
--force, and --force names every file it discards."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import Project
from tests.conftest import Result
from tests.sessions.session_testkit import make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"
ORPHAN = "0000000c"


def _exec_session(cli: Cli, project: Project) -> str:
    done = cli("--json", "exec", "--", "sh", "-c", "echo precious > work.txt", cwd=project.root)
    assert done.exit_code == 0, done.stdout + done.stderr
    session_id: str = done.json["data"]["id"]
    return session_id


def _refusal(worktree: Path, session_id: str, files: list[str]) -> dict[str, Any]:
    return {"code": "SAFETY_BLOCK", "retryable": False,
            "message": f"session '{session_id}' has a worktree git cannot read ({worktree}): "
                       + {1: "its 1 file cannot be checked for unmerged work; look at it",
                          2: "its 2 files cannot be checked for unmerged work; look at them",
                          }[len(files)] + ", or delete with --force",
            "hint": f"gz-ia session delete {session_id} --force",
            "details": {"id": session_id, "worktree": str(worktree), "files": files,
                        "unmerged_commits": 0}}


def _break_git_file(worktree: Path, how: str) -> None:
    if how == "missing":
        (worktree / ".git").unlink()
    else:
        (worktree / ".git").write_text("gitdir: /nonexistent/gz-ia-test\n")


@pytest.mark.parametrize("how", ["missing", "broken"])
def test_delete_refuses_a_worktree_git_cannot_read(cli: Cli, project: Project,
                                                   how: str) -> None:
    session_id = _exec_session(cli, project)
    worktree = project.worktrees_dir / session_id
    _break_git_file(worktree, how)
    refused = cli("--json", "session", "delete", session_id, cwd=project.root)
    assert refused.exit_code == 1
    assert refused.json["errors"] == [_refusal(worktree, session_id, ["README.md", "work.txt"])]
    assert (worktree / "work.txt").read_text() == "precious\n"
    assert (project.sessions_dir / f"{session_id}.json").is_file()
    forced = cli("--json", "session", "delete", session_id, "--force", cwd=project.root)
    assert forced.exit_code == 0, forced.stdout
    assert forced.json["data"]["discarded_files"] == ["README.md", "work.txt"]
    assert not worktree.exists()
    assert not (project.sessions_dir / f"{session_id}.json").exists()


def test_delete_refusal_in_spanish(cli: Cli, project: Project) -> None:
    session_id = _exec_session(cli, project)
    worktree = project.worktrees_dir / session_id
    (worktree / ".git").unlink()
    refused = cli("session", "delete", session_id, cwd=project.root, env=ES)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        f"Error: la sesión '{session_id}' tiene un worktree que git no puede leer "
        f"({worktree}): no se puede comprobar si sus 2 archivos tienen trabajo sin "
        f"fusionar; revísalos o elimínala con --force\n"
        f"gz-ia session delete {session_id} --force\n")


def _plain_directory(project: Project, session_id: str) -> Path:
    """``.harness/worktrees/<id>`` as a plain directory holding a file (no .git at all)."""
    path = project.worktrees_dir / session_id
    (path / "notes").mkdir(parents=True)
    (path / "notes" / "precious.txt").write_text("mine\n")
    return path


def test_delete_refuses_a_plain_directory_holding_files(cli: Cli, project: Project) -> None:
    make_session(project, SID)
    run_git(project.root, "worktree", "remove", "--force", str(project.worktrees_dir / SID))
    path = _plain_directory(project, SID)
    refused = cli("--json", "session", "delete", SID, cwd=project.root)
    assert refused.exit_code == 1
    assert refused.json["errors"] == [_refusal(path, SID, ["notes/precious.txt"])]
    forced = cli("--json", "session", "delete", SID, "--force", cwd=project.root)
    assert forced.json["data"]["discarded_files"] == ["notes/precious.txt"]
    assert not path.exists()


def test_delete_removes_an_empty_plain_directory_without_force(cli: Cli,
                                                               project: Project) -> None:
    make_session(project, SID)
    path = project.worktrees_dir / SID
    run_git(project.root, "worktree", "remove", "--force", str(path))
    (path / "empty" / "dirs").mkdir(parents=True)
    done = cli("--json", "session", "delete", SID, cwd=project.root)
    assert (done.exit_code, done.json["data"]["discarded_files"]) == (0, [])
    assert not path.exists()


def _old(path: Path) -> None:
    hour_ago = time.time() - 3600
    os.utime(path, (hour_ago, hour_ago))


def _prune(cli: Cli, project: Project, *args: str) -> dict[str, Any]:
    done = cli("--json", "session", "prune", *args, cwd=project.root)
    assert (done.exit_code, done.stderr) == (0, "")
    data: dict[str, Any] = done.json["data"]
    return data


def test_prune_keeps_a_plain_directory_holding_files_unless_forced(
        cli: Cli, project: Project) -> None:
    path = _plain_directory(project, ORPHAN)
    (project.worktrees_dir / "0000000d").mkdir()  # empty: nothing to lose
    _old(path)
    _old(project.worktrees_dir / "0000000d")
    kept = _prune(cli, project)
    assert kept["kept_worktrees"] == [
        {"id": ORPHAN, "reason": "unreadable", "path": str(path), "files": []}]
    assert (kept["removed_dirs"], kept["discarded_files"]) == (["0000000d"], [])
    assert (path / "notes" / "precious.txt").is_file()
    assert _prune(cli, project, "--force", "--dry-run")["removed_dirs"] == [ORPHAN]
    dry = cli("session", "prune", "--force", "--dry-run", cwd=project.root)
    assert dry.stdout == (
        "✧ Orphan cleanup:\n"
        "(dry run: what prune would do; nothing is removed)\n"
        f"  - Would remove orphaned worktree directory: {ORPHAN}\n"
        "    ! Uncommitted work it would discard (1 file):\n"
        "      • notes/precious.txt\n")
    human = cli("session", "prune", "--force", cwd=project.root, env=ES)
    assert human.stdout == (
        "✧ Reconciliación de Basura Huérfana:\n"
        f"  ✓ Directorio de worktree huérfano eliminado: {ORPHAN}\n"
        "    ! Trabajo sin comitear descartado (1 archivo):\n"
        "      • notes/precious.txt\n")
    assert not path.exists()


def test_forced_prune_reports_the_files_of_a_plain_directory(cli: Cli,
                                                             project: Project) -> None:
    path = _plain_directory(project, ORPHAN)
    (path / "link").symlink_to(project.root / "README.md")
    _old(path)
    forced = _prune(cli, project, "--force")
    assert (forced["removed_dirs"], forced["discarded_files"], forced["kept_worktrees"]) == (
        [ORPHAN], [{"id": ORPHAN, "files": ["link", "notes/precious.txt"]}], [])
    assert (project.root / "README.md").read_text() == "hello\n"
