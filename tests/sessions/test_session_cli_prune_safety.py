"""session prune never loses what a user still holds: locked worktrees, uncommitted work."""

from __future__ import annotations

import os
import shutil
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
LOCKED, DIRTY = "0000000a", "0000000b"
NOTHING_ELSE = {"removed_dirs": [], "removed_events": [], "removed_locks": [],
                "missing_worktrees": []}


def _orphan(project: Project, sid: str) -> Path:
    """A session whose record is gone and whose worktree is older than a minute."""
    make_session(project, sid)
    (project.sessions_dir / f"{sid}.json").unlink()
    worktree = project.worktrees_dir / sid
    hour_ago = time.time() - 3600
    os.utime(worktree, (hour_ago, hour_ago))
    return worktree


def _prune(cli: Cli, project: Project, *args: str, env: dict[str, str] | None = None
           ) -> dict[str, Any]:
    result = cli("session", "prune", "--json", *args, "-d", str(project.root), env=env or {})
    assert (result.exit_code, result.stderr) == (0, "")
    data: dict[str, Any] = result.json["data"]
    return data


def _dry_then_real(cli: Cli, project: Project, *args: str) -> dict[str, Any]:
    """Both runs' JSON; the dry run must announce exactly what the real run does."""
    dry = _prune(cli, project, "--dry-run", *args)
    real = _prune(cli, project, *args)
    assert dry == {**real, "dry_run": True}
    return real


def _branches(project: Project) -> list[str]:
    return run_git(project.root, "branch", "--list", "harness/*",
                   "--format=%(refname:short)").split()


def _kept(sid: str, reason: str, path: Path, files: list[str] | None = None) -> dict[str, Any]:
    return {"id": sid, "reason": reason, "path": str(path), "files": files or []}


def test_a_locked_orphaned_worktree_is_kept_with_its_branch_events_and_lock(
    cli: Cli, project: Project
) -> None:
    worktree = _orphan(project, LOCKED)
    run_git(project.root, "worktree", "lock", "--reason", "on a USB disk", str(worktree))
    sessions_files = sorted(os.listdir(project.sessions_dir))
    assert _dry_then_real(cli, project) == {
        "dry_run": False, "force": False, "removed_worktrees": [], "discarded_files": [],
        "kept_worktrees": [_kept(LOCKED, "locked", worktree)],
        "kept_branches": [], "removed_branches": [],
        "branch_tips": [], **NOTHING_ELSE}
    assert (worktree / "README.md").is_file()
    assert _branches(project) == [f"harness/{LOCKED}"]
    assert sorted(os.listdir(project.sessions_dir)) == sessions_files
    assert "locked on a USB disk" in run_git(project.root, "worktree", "list", "--porcelain")
    forced = _prune(cli, project, "--force")  # --force is about uncommitted work, not locks
    assert forced["kept_worktrees"] == [_kept(LOCKED, "locked", worktree)]
    assert worktree.is_dir()
    run_git(project.root, "worktree", "unlock", str(worktree))
    assert _prune(cli, project)["removed_worktrees"] == [LOCKED]
    assert not worktree.exists()
    assert _branches(project) == []
    assert str(worktree) not in run_git(project.root, "worktree", "list")


def test_a_locked_worktree_whose_directory_is_away_is_not_forgotten(
    cli: Cli, project: Project
) -> None:
    """Locking is how a worktree on a removable disk is kept: its absence is no orphan."""
    worktree = _orphan(project, LOCKED)
    run_git(project.root, "worktree", "lock", str(worktree))
    shutil.rmtree(worktree)
    assert _dry_then_real(cli, project) == {
        "dry_run": False, "force": False, "removed_worktrees": [], "discarded_files": [],
        "kept_worktrees": [_kept(LOCKED, "locked", worktree)],
        "kept_branches": [], "removed_branches": [],
        "branch_tips": [], **NOTHING_ELSE}
    assert _branches(project) == [f"harness/{LOCKED}"]
    assert str(worktree) in run_git(project.root, "worktree", "list")


@pytest.mark.parametrize(("env", "expected"), [
    ({}, ("✧ Orphan cleanup:\n"
          "  ! Orphaned worktree kept, it is locked: 0000000a; "
          "unlock it with: git worktree unlock .harness/worktrees/0000000a\n"
          "  ! Orphaned worktree kept, it has uncommitted work: 0000000b; "
          "remove it anyway with: gz-ia session prune --force\n"
          "    Uncommitted files (2):\n"
          "      • README.md\n"
          "      • notes/precious.txt\n")),
    (ES, ("✧ Reconciliación de Basura Huérfana:\n"
          "  ! Worktree huérfano conservado, está bloqueado: 0000000a; "
          "desbloquéalo con: git worktree unlock .harness/worktrees/0000000a\n"
          "  ! Worktree huérfano conservado, tiene trabajo sin comitear: 0000000b; "
          "elimínalo de todos modos con: gz-ia session prune --force\n"
          "    Archivos sin comitear (2):\n"
          "      • README.md\n"
          "      • notes/precious.txt\n")),
], ids=["en", "es"])
def test_human_output_says_why_each_worktree_is_kept(
    cli: Cli, project: Project, env: dict[str, str], expected: str
) -> None:
    locked = _orphan(project, LOCKED)
    run_git(project.root, "worktree", "lock", str(locked))
    dirty = _dirty_orphan(project)
    dry = cli("session", "prune", "--dry-run", "-d", str(project.root), env=env)
    assert (dry.exit_code, dry.stderr) == (0, "")
    assert dry.stdout == _dry_run(expected, env)
    real = cli("session", "prune", "-d", str(project.root), env=env)
    assert (real.exit_code, real.stdout, real.stderr) == (0, expected, "")
    assert locked.is_dir() and (dirty / "notes" / "precious.txt").read_text() == "precious\n"


def _dry_run(report: str, env: dict[str, str]) -> str:
    """The human report as --dry-run prints it: the note right after the title."""
    title, rest = report.split("\n", 1)
    note = ("(simulación: lo que haría prune; no se elimina nada)" if env
            else "(dry run: what prune would do; nothing is removed)")
    return f"{title}\n{note}\n{rest}"


# what --dry-run says of the forced prune below: every line says what prune would do
DRY_WORDING = {
    False: ("✧ Orphan cleanup:\n"
            "(dry run: what prune would do; nothing is removed)\n"
            "  - Would remove orphaned worktree: 0000000b\n"
            "    ! Uncommitted work it would discard (2 files):\n"
            "      • README.md\n"
            "      • notes/precious.txt\n"
            "  - Would delete orphaned branch: harness/0000000b (at {short}); "
            "it could be recovered with: git branch harness/0000000b {short}\n"
            "  - Would remove orphaned lock file: 0000000b.lock\n"),
    True: ("✧ Reconciliación de Basura Huérfana:\n"
           "(simulación: lo que haría prune; no se elimina nada)\n"
           "  - Se eliminaría el worktree huérfano: 0000000b\n"
           "    ! Trabajo sin comitear que se descartaría (2 archivos):\n"
           "      • README.md\n"
           "      • notes/precious.txt\n"
           "  - Se eliminaría la rama huérfana: harness/0000000b (en {short}); "
           "podría recuperarse con: git branch harness/0000000b {short}\n"
           "  - Se eliminaría el archivo de bloqueo huérfano: 0000000b.lock\n"),
}


def _dirty_orphan(project: Project) -> Path:
    worktree = _orphan(project, DIRTY)
    (worktree / "notes").mkdir()
    (worktree / "notes" / "precious.txt").write_text("precious\n")
    with (worktree / "README.md").open("a") as readme:
        readme.write("an edit nobody committed\n")
    (worktree / ".harness-session").mkdir(exist_ok=True)
    (worktree / ".harness-session" / "mcp.json").write_text("{}")  # injected, not work
    os.utime(worktree, (time.time() - 3600, time.time() - 3600))
    return worktree


def test_uncommitted_work_keeps_an_orphaned_worktree_unless_forced(
    cli: Cli, project: Project
) -> None:
    worktree = _dirty_orphan(project)
    files = ["README.md", "notes/precious.txt"]
    assert _dry_then_real(cli, project) == {
        "dry_run": False, "force": False, "removed_worktrees": [], "discarded_files": [],
        "kept_worktrees": [_kept(DIRTY, "uncommitted", worktree, files)], "kept_branches": [],
        "removed_branches": [], "branch_tips": [], **NOTHING_ELSE}
    assert (worktree / "notes" / "precious.txt").read_text() == "precious\n"
    assert "an edit nobody committed" in (worktree / "README.md").read_text()
    assert _branches(project) == [f"harness/{DIRTY}"]
    head = run_git(project.root, "rev-parse", f"harness/{DIRTY}").strip()
    assert _dry_then_real(cli, project, "--force") == {
        "dry_run": False, "force": True, "removed_worktrees": [DIRTY],
        "discarded_files": [{"id": DIRTY, "files": files}], "kept_worktrees": [],
        "kept_branches": [],
        "removed_branches": [f"harness/{DIRTY}"],
        "branch_tips": [{"branch": f"harness/{DIRTY}", "commit": head, "on_other_branch": True,
                         "recover": f"git branch harness/{DIRTY} {head}"}],
        "removed_dirs": [], "removed_events": [], "removed_locks": [f"{DIRTY}.lock"],
        "missing_worktrees": []}
    assert not worktree.exists()
    assert _branches(project) == []


@pytest.mark.parametrize(("env", "expected"), [
    ({}, ("✧ Orphan cleanup:\n"
          "  ✓ Orphaned worktree pruned: 0000000b\n"
          "    ! Uncommitted work discarded (2 files):\n"
          "      • README.md\n"
          "      • notes/precious.txt\n"
          "  ✓ Orphaned branch deleted: harness/0000000b (was {short}); "
          "recover it with: git branch harness/0000000b {short}\n"
          "  ✓ Orphaned lock file removed: 0000000b.lock\n")),
    (ES, ("✧ Reconciliación de Basura Huérfana:\n"
          "  ✓ Worktree huérfano podado: 0000000b\n"
          "    ! Trabajo sin comitear descartado (2 archivos):\n"
          "      • README.md\n"
          "      • notes/precious.txt\n"
          "  ✓ Rama huérfana eliminada: harness/0000000b (era {short}); "
          "recupérala con: git branch harness/0000000b {short}\n"
          "  ✓ Archivo de bloqueo huérfano eliminado: 0000000b.lock\n")),
], ids=["en", "es"])
def test_forced_prune_names_the_files_it_discards(
    cli: Cli, project: Project, env: dict[str, str], expected: str
) -> None:
    worktree = _dirty_orphan(project)
    short = run_git(project.root, "rev-parse", "--short", f"harness/{DIRTY}").strip()
    text = expected.format(short=short)
    dry = cli("session", "prune", "--force", "--dry-run", "-d", str(project.root), env=env)
    would = DRY_WORDING[bool(env)].format(short=short)
    assert (dry.exit_code, dry.stdout, dry.stderr) == (0, would, "")
    assert (worktree / "notes" / "precious.txt").is_file()
    real = cli("session", "prune", "-f", "-d", str(project.root), env=env)
    assert (real.exit_code, real.stdout, real.stderr) == (0, text, "")
    assert not worktree.exists()


def test_a_worktree_git_cannot_read_is_kept_unless_forced(cli: Cli, project: Project) -> None:
    """Without its .git file, git status there would describe the main worktree."""
    worktree = _orphan(project, DIRTY)
    (worktree / ".git").unlink()
    os.utime(worktree, (time.time() - 3600, time.time() - 3600))
    (project.root / "main-only.txt").write_text("the user's, not the session's\n")
    assert _dry_then_real(cli, project)["kept_worktrees"] == [
        _kept(DIRTY, "unreadable", worktree)]
    result = cli("session", "prune", "-d", str(project.root), env=ES)
    assert result.stdout == (
        "✧ Reconciliación de Basura Huérfana:\n"
        "  ! Worktree huérfano conservado, git no puede leer su estado: 0000000b; "
        "elimínalo de todos modos con: gz-ia session prune --force\n")
    assert worktree.is_dir()
    forced = _dry_then_real(cli, project, "--force")
    assert (forced["removed_worktrees"], forced["discarded_files"], forced["kept_worktrees"]) == (
        [DIRTY], [{"id": DIRTY, "files": ["README.md"]}], [])
    assert not worktree.exists()
    assert (project.root / "main-only.txt").is_file()


def test_prune_force_is_documented_in_both_languages(cli: Cli) -> None:
    english = cli("session", "prune", "--help").stdout
    spanish = cli("session", "prune", "--help", env=ES).stdout
    assert "Also remove orphaned worktrees holding uncommitted work." in " ".join(
        english.split())
    assert "Elimina también worktrees huérfanos con trabajo sin comitear." in " ".join(
        spanish.split())


def test_commits_on_a_detached_head_keep_an_orphaned_worktree_unless_forced(
    cli: Cli, project: Project
) -> None:
    """Removing the worktree would drop the only reflog that knows them."""
    worktree = _orphan(project, DIRTY)
    run_git(worktree, "checkout", "-q", "--detach")
    (worktree / "lonely.txt").write_text("only here\n")
    run_git(worktree, "add", "lonely.txt")
    run_git(worktree, "commit", "-q", "-m", "on no branch")
    hour_ago = time.time() - 3600
    os.utime(worktree, (hour_ago, hour_ago))  # not a session being set up
    kept = _dry_then_real(cli, project)
    assert kept["kept_worktrees"] == [_kept(DIRTY, "unmerged_head", worktree)]
    assert worktree.is_dir()
    human = cli("session", "prune", "-d", str(project.root), env=ES)
    assert (f"  ! Worktree huérfano conservado, su HEAD tiene commits que ninguna rama tiene: "
            f"{DIRTY}; elimínalo de todos modos con: gz-ia session prune --force\n"
            ) in human.stdout
    forced = _prune(cli, project, "--force")
    assert forced["removed_worktrees"] == [DIRTY]
    assert not worktree.exists()
