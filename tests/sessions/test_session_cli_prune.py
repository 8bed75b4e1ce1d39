"""session prune: the tips of the branches it deletes, sessions being set up, lock files."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git
from tests.waiting import descriptors_open_on, wait_for

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
UNIQUE, SHARED = "0badf00d", "00c0ffee"


def _age(path: Path) -> None:
    hour_ago = time.time() - 3600
    os.utime(path, (hour_ago, hour_ago))


@pytest.fixture
def orphans(project: Project) -> dict[str, str]:
    """Two orphan session branches: one with a commit no other branch has, one at main."""
    root = project.root
    run_git(root, "switch", "-q", "-c", f"harness/{UNIQUE}")
    commit_file(root, "only-here.txt", "session work\n", "work nobody merged")
    run_git(root, "switch", "-q", "main")
    run_git(root, "branch", f"harness/{SHARED}")
    return {name: run_git(root, "rev-parse", f"harness/{name}").strip()
            for name in (UNIQUE, SHARED)}


def test_prune_reports_the_tips_it_deletes_and_the_sha_brings_a_branch_back(
    cli: Cli, project: Project, orphans: dict[str, str]
) -> None:
    root = project.root
    data = cli("session", "prune", "--json", "-d", str(root)).json["data"]
    assert data == {
        "dry_run": False, "force": False, "removed_worktrees": [], "discarded_files": [],
        "kept_worktrees": [],
        "kept_branches": [], "removed_branches": [f"harness/{SHARED}", f"harness/{UNIQUE}"],
        "branch_tips": [
            {"branch": f"harness/{SHARED}", "commit": orphans[SHARED], "on_other_branch": True,
             "recover": f"git branch harness/{SHARED} {orphans[SHARED]}"},
            {"branch": f"harness/{UNIQUE}", "commit": orphans[UNIQUE], "on_other_branch": False,
             "recover": f"git branch harness/{UNIQUE} {orphans[UNIQUE]}"},
        ],
        "removed_dirs": [], "removed_events": [], "removed_locks": [], "missing_worktrees": []}
    assert run_git(root, "branch", "--list", "harness/*") == ""
    for tip in data["branch_tips"]:
        subprocess.run(shlex.split(tip["recover"]), cwd=root, check=True)
    assert run_git(root, "log", "--format=%s", "-1", f"harness/{UNIQUE}").strip() == (
        "work nobody merged")
    assert run_git(root, "show", f"harness/{UNIQUE}:only-here.txt") == "session work\n"
    assert run_git(root, "rev-parse", f"harness/{SHARED}").strip() == orphans[SHARED]


@pytest.mark.parametrize(("env", "expected"), [
    ({}, (
        "✧ Orphan cleanup:\n"
        "  ✓ Orphaned branch deleted: harness/00c0ffee (was {shared}); "
        "recover it with: git branch harness/00c0ffee {shared}\n"
        "  ✓ Orphaned branch deleted: harness/0badf00d (was {unique}); "
        "recover it with: git branch harness/0badf00d {unique}\n"
        "    ! {unique} is on no other branch: keep this SHA to get its commits back\n")),
    (ES, (
        "✧ Reconciliación de Basura Huérfana:\n"
        "  ✓ Rama huérfana eliminada: harness/00c0ffee (era {shared}); "
        "recupérala con: git branch harness/00c0ffee {shared}\n"
        "  ✓ Rama huérfana eliminada: harness/0badf00d (era {unique}); "
        "recupérala con: git branch harness/0badf00d {unique}\n"
        "    ! {unique} no está en ninguna otra rama: guarda este SHA para recuperar sus "
        "commits\n")),
], ids=["en", "es"])
def test_prune_human_output_names_each_tip_and_the_recovery(
    cli: Cli, project: Project, orphans: dict[str, str], env: dict[str, str], expected: str
) -> None:
    root = project.root
    short = {name: run_git(root, "rev-parse", "--short", sha).strip()
             for name, sha in orphans.items()}
    result = cli("session", "prune", "-d", str(root), env=env)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == expected.format(shared=short[SHARED], unique=short[UNIQUE])
    recover = f"git branch harness/{UNIQUE} {short[UNIQUE]}"
    subprocess.run(shlex.split(recover), cwd=root, check=True)
    assert run_git(root, "rev-parse", f"harness/{UNIQUE}").strip() == orphans[UNIQUE]


def test_a_tip_shared_only_with_another_deleted_branch_is_on_no_other_branch(
    cli: Cli, project: Project, orphans: dict[str, str]
) -> None:
    run_git(project.root, "branch", "harness/0badf00e", f"harness/{UNIQUE}")
    tips = cli("session", "prune", "--json", "-d", str(project.root)).json["data"]["branch_tips"]
    assert [(t["branch"], t["on_other_branch"]) for t in tips] == [
        (f"harness/{SHARED}", True), (f"harness/{UNIQUE}", False), ("harness/0badf00e", False)]


def test_a_session_being_set_up_keeps_its_worktree_events_and_lock(
    cli: Cli, project: Project
) -> None:
    """Its record is being written right now: nothing of it is an orphan yet."""
    sid = "abcdef01"
    make_session(project, sid)
    store = SessionStore(project)
    from gzia.sessions.events import append_event, new_event

    append_event(store, new_event(sid, "exec session started", "PENDING"))
    (project.sessions_dir / f"{sid}.json").unlink()
    files = sorted(os.listdir(project.sessions_dir))
    assert files == [f"{sid}.events.jsonl", f"{sid}.lock"]
    nothing = cli("session", "prune", "--json", "-d", str(project.root)).json["data"]
    assert (nothing["removed_worktrees"], nothing["removed_branches"], nothing["removed_events"],
            nothing["removed_locks"]) == ([], [], [], [])
    assert sorted(os.listdir(project.sessions_dir)) == files
    assert (project.worktrees_dir / sid).is_dir()
    _age(project.worktrees_dir / sid)  # a minute later it is an orphan like any other
    data = cli("session", "prune", "--json", "-d", str(project.root)).json["data"]
    assert (data["removed_worktrees"], data["removed_branches"], data["removed_events"],
            data["removed_locks"]) == (
        [sid], [f"harness/{sid}"], [f"{sid}.events.jsonl"], [f"{sid}.lock"])
    assert os.listdir(project.sessions_dir) == []


@pytest.fixture
def lock_holder(project: Project) -> Iterator[Path]:
    """Another process holding ``0000000b.lock`` (as a gz-ia writing that record would)."""
    path = project.sessions_dir / "0000000b.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    holds = ("import fcntl, sys, time\nhandle = open(sys.argv[1], 'a')\n"
             "fcntl.flock(handle, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)\n")
    holder = subprocess.Popen([sys.executable, "-c", holds, str(path)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield path
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.timeout(20)
def test_prune_removes_lock_files_with_no_record_and_no_holder(
    cli: Cli, project: Project, lock_holder: Path
) -> None:
    sessions = project.sessions_dir
    make_session(project, "abcdef01")  # its lock file stays: it has a record
    (sessions / "0000000a.lock").write_text("")  # orphan, held by nobody
    os.mkfifo(sessions / "0000000c.lock")  # not a lock file of gz-ia's: left alone
    (sessions / "notanid.lock").write_text("")  # not a session name: left alone
    before = sorted(os.listdir(sessions))
    dry = cli("session", "prune", "--dry-run", "--json", "-d", str(project.root)).json["data"]
    assert dry["removed_locks"] == ["0000000a.lock"]
    assert sorted(os.listdir(sessions)) == before
    result = cli("session", "prune", "-d", str(project.root))
    assert result.stdout == ("✧ Orphan cleanup:\n"
                             "  ✓ Orphaned lock file removed: 0000000a.lock\n")
    assert sorted(os.listdir(sessions)) == sorted(set(before) - {"0000000a.lock"})
    assert lock_holder.is_file()


def test_lock_removed_while_another_waits_is_taken_again_from_the_new_file(
    store: SessionStore,
) -> None:
    """A writer waiting on a lock file that prune or delete removes must not end up holding
    a lock nobody else can see: it takes the lock of the file now at the path."""
    import fcntl
    import threading

    sid = "abcdef01"
    path = store.lock_path(sid)
    seen: list[bool] = []

    def waiter() -> None:
        with store.lock(sid):
            probe = os.open(path, os.O_RDWR)
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                seen.append(False)  # the file at the path is free: the lock is not real
            except BlockingIOError:
                seen.append(True)
            finally:
                os.close(probe)

    with store.lock(sid):
        thread = threading.Thread(target=waiter)
        thread.start()
        wait_for(lambda: descriptors_open_on(path) == 2,
                 "the waiter to open the old lock file and wait for it")
        path.unlink()
    thread.join(timeout=10)
    assert seen == [True]


def _young_dirty_orphan(project: Project) -> Path:
    """A session worktree created just now, holding an uncommitted file, with no record."""
    sid = "abcdef01"
    make_session(project, sid)
    worktree = project.worktrees_dir / sid
    (worktree / "draft.txt").write_text("not committed yet\n")
    (project.sessions_dir / f"{sid}.json").unlink()
    return worktree


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "✧ Orphan cleanup:\n"
         "  ! Orphaned worktree kept, created less than a minute ago (its session may be "
         "starting): abcdef01; run gz-ia session prune again later\n"
         "    Uncommitted files (1):\n      • draft.txt\n"),
    (ES, "✧ Reconciliación de Basura Huérfana:\n"
         "  ! Worktree huérfano conservado, creado hace menos de un minuto (su sesión puede "
         "estar iniciándose): abcdef01; vuelve a ejecutar gz-ia session prune más tarde\n"
         "    Archivos sin comitear (1):\n      • draft.txt\n"),
], ids=["en", "es"])
def test_a_young_orphaned_worktree_is_reported_as_kept_and_why(
    cli: Cli, project: Project, env: dict[str, str], expected: str
) -> None:
    worktree = _young_dirty_orphan(project)
    result = cli("session", "prune", "-d", str(project.root), env=env)
    assert result == Result(0, expected, "")
    dry = cli("session", "prune", "--dry-run", "--json", "-d", str(project.root)).json["data"]
    assert dry["kept_worktrees"] == [{"id": "abcdef01", "reason": "young",
                                      "path": str(worktree), "files": ["draft.txt"]}]
    assert dry["kept_branches"] == []  # the worktree's own branch: reported with it
    assert (worktree / "draft.txt").is_file()


def test_a_young_stray_directory_is_reported_as_kept(cli: Cli, project: Project) -> None:
    stray = project.worktrees_dir / "abcdef02"
    stray.mkdir(parents=True)
    data = cli("session", "prune", "--json", "-d", str(project.root)).json["data"]
    assert data["kept_worktrees"] == [{"id": "abcdef02", "reason": "young", "path": str(stray),
                                       "files": []}]
    assert data["removed_dirs"] == [] and stray.is_dir()
    _age(stray)
    assert cli("session", "prune", "--json", "-d", str(project.root)).json["data"][
        "removed_dirs"] == ["abcdef02"]


@pytest.mark.parametrize(("env", "line"), [
    ({}, "  ! Orphaned branch kept, it is checked out in {root}: harness/0badf00d; "
         "switch that worktree to another branch first"),
    (ES, "  ! Rama huérfana conservada, está activa en {root}: harness/0badf00d; "
         "cambia ese worktree a otra rama primero"),
], ids=["en", "es"])
def test_an_orphaned_branch_checked_out_by_the_user_is_reported_as_kept(
    cli: Cli, project: Project, orphans: dict[str, str], env: dict[str, str], line: str
) -> None:
    root = project.root
    run_git(root, "switch", "-q", f"harness/{UNIQUE}")
    dry = cli("session", "prune", "--dry-run", "--json", "-d", str(root)).json["data"]
    assert dry["kept_branches"] == [
        {"branch": f"harness/{UNIQUE}", "reason": "checked_out", "path": str(root)}]
    assert dry["removed_branches"] == [f"harness/{SHARED}"]
    lines = cli("session", "prune", "-d", str(root), env=env).stdout.splitlines()
    assert line.format(root=root) in lines
    assert run_git(root, "branch", "--show-current").strip() == f"harness/{UNIQUE}"
