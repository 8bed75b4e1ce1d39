from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gzia.contract import InvalidInputError, NotFoundError, SafetyBlockError
from gzia.i18n import N_
from gzia.sessions.project import Project, find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import (
    Workspace,
    inject_file,
    prepare_workspace,
    workspace_of,
)
from tests.sessions.session_testkit import make_repo, run_git

SID = "abcdef01"


def test_isolated_worktree_on_its_own_branch_from_head(project: Project, repo: Path) -> None:
    head = run_git(repo, "rev-parse", "HEAD").strip()
    config_before = (repo / ".git" / "config").read_text()
    ws = prepare_workspace(project, SID)
    assert ws == Workspace(SID, repo, repo / ".harness/worktrees" / SID, True,
                           repo / ".harness/worktrees" / SID, f"harness/{SID}", "main", head)
    assert run_git(ws.target_dir, "rev-parse", "--abbrev-ref", "HEAD").strip() == f"harness/{SID}"
    assert (ws.target_dir / "README.md").read_text() == "hello\n"
    assert (repo / ".git" / "config").read_text() == config_before
    assert run_git(repo, "status", "--porcelain") == ""


def test_exclude_entries_are_added_once(project: Project, repo: Path) -> None:
    exclude = repo / ".git" / "info" / "exclude"
    exclude.write_text("*.log")  # no trailing newline
    prepare_workspace(project, SID)
    prepare_workspace(project, "abcdef02")
    assert exclude.read_text() == (
        "*.log\n\n# gz-ia session worktrees and metadata\n.harness/\n.harness-session/\n"
    )


def test_resume_reuses_the_worktree_and_keeps_its_work(project: Project) -> None:
    first = prepare_workspace(project, SID)
    (first.target_dir / "work.txt").write_text("in progress")
    again = prepare_workspace(project, SID)
    assert (first.created, again.created) == (True, False)  # what set-up runs after
    assert again.target_dir == first.target_dir
    assert (again.target_dir / "work.txt").read_text() == "in progress"


def test_worktree_dir_removed_but_branch_kept_is_recreated(project: Project, repo: Path) -> None:
    ws = prepare_workspace(project, SID)
    (ws.target_dir / "a.txt").write_text("a")
    run_git(ws.target_dir, "add", "a.txt")
    run_git(ws.target_dir, "commit", "-q", "-m", "agent work")
    shutil.rmtree(ws.target_dir)
    again = prepare_workspace(project, SID)
    assert (again.target_dir / "a.txt").read_text() == "a"


def test_repository_without_commits_is_a_clear_error(tmp_path: Path) -> None:
    project = find_project(make_repo(tmp_path / "empty", commit=False))
    with pytest.raises(NotFoundError) as caught:
        prepare_workspace(project, SID)
    assert caught.value.key == N_("the repository at {root} has no commits yet; sessions branch "
                                  "from HEAD")
    assert caught.value.hint_key == N_("make a first commit: git add -A && git commit -m 'initial "
                                       "commit'")
    assert not (tmp_path / "empty" / ".harness").exists()


def test_non_git_directory_runs_in_direct_mode(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    ws = prepare_workspace(find_project(plain), SID)
    assert ws == Workspace(SID, plain, plain, False)
    assert list(plain.iterdir()) == []
    record = SessionRecord(id=SID)
    ws.apply_to(record)
    assert (record.is_isolated, record.working_dir) == (False, str(plain))
    assert record.worktree_dir is None


def test_detached_head_has_no_base_branch(project: Project, repo: Path) -> None:
    run_git(repo, "checkout", "-q", "--detach")
    assert prepare_workspace(project, SID).base_branch is None


def test_project_hooks_keep_running_in_the_worktree(project: Project, repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    marker = repo.parent / "hook-ran"
    hook.write_text(f"#!/bin/sh\necho ran >> '{marker}'\n")
    hook.chmod(0o755)
    ws = prepare_workspace(project, SID)
    (ws.target_dir / "b.txt").write_text("b")
    run_git(ws.target_dir, "add", "b.txt")
    run_git(ws.target_dir, "commit", "-q", "-m", "b")
    assert marker.read_text() == "ran\n"


def test_injected_files_never_reach_a_commit(project: Project, repo: Path) -> None:
    ws = prepare_workspace(project, SID)
    path = inject_file(ws, "mcp/config.json", '{"mcpServers": {}}')
    assert path == ws.target_dir / ".harness-session" / "mcp" / "config.json"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    (ws.target_dir / "agent.txt").write_text("agent")
    run_git(ws.target_dir, "add", "-A")  # what an agent typically does
    run_git(ws.target_dir, "commit", "-q", "-m", "agent")
    files = run_git(ws.target_dir, "show", "--name-only", "--format=", "HEAD").split()
    assert files == ["agent.txt"]
    assert run_git(ws.target_dir, "status", "--porcelain") == ""


@pytest.mark.parametrize("bad", ["/etc/passwd", "../escape", "a/../../b", "", "a\\b"])
def test_inject_refuses_paths_outside_its_directory(project: Project, bad: str) -> None:
    ws = prepare_workspace(project, SID)
    with pytest.raises(InvalidInputError):
        inject_file(ws, bad, "x")


@pytest.mark.parametrize("link", [".harness-session", ".harness-session/mcp"])
def test_inject_never_writes_through_a_tracked_link(project: Project, repo: Path,
                                                    tmp_path: Path, link: str) -> None:
    """A repository can track ``.harness-session -> /elsewhere``: the checkout brings it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / link).parent.mkdir(exist_ok=True)
    (repo / link).symlink_to(elsewhere)
    run_git(repo, "add", "-f", link)
    run_git(repo, "commit", "-q", "-m", "a link")
    ws = prepare_workspace(project, SID)
    with pytest.raises(SafetyBlockError) as refused:
        inject_file(ws, "mcp/config.json", '{"token": "secret"}')
    assert refused.value.details == {"path": str(ws.target_dir / link),
                                     "target": str(elsewhere)}
    assert list(elsewhere.iterdir()) == []


def test_direct_mode_injects_under_the_harness_dir(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    ws = prepare_workspace(find_project(plain), SID)
    assert inject_file(ws, "x.json", b"{}") == plain / ".harness/session-files" / SID / "x.json"


def test_workspace_of_a_record(project: Project, repo: Path) -> None:
    ws = prepare_workspace(project, SID)
    record = SessionRecord(id=SID)
    ws.apply_to(record)
    assert workspace_of(project, record) == ws


def test_workspace_of_never_takes_a_path_from_the_record(project: Project, tmp_path: Path) -> None:
    """A record edited by hand, or from a project that was moved, must not send an agent
    to work in some other directory: the paths come from the project."""
    elsewhere = str(tmp_path / "elsewhere")
    direct = SessionRecord(id=SID, working_dir=elsewhere)
    assert workspace_of(project, direct).target_dir == project.root
    isolated = SessionRecord(id=SID, working_dir=elsewhere, is_isolated=True,
                             worktree_dir=elsewhere, branch_name="main")
    ws = workspace_of(project, isolated)
    assert (ws.working_dir, ws.target_dir, ws.branch_name) == (
        project.root, project.worktrees_dir / SID, f"harness/{SID}")


def test_a_users_worktree_that_is_away_is_not_forgotten(project: Project, repo: Path,
                                                        tmp_path: Path) -> None:
    """A worktree of the user's on an unmounted disk looks "missing" to git: a session
    (or a delete) must not make git forget it, only its own."""
    away = tmp_path / "usb" / "feature"
    run_git(repo, "worktree", "add", "-q", "-b", "feature", str(away))
    (away / "wip.txt").write_text("uncommitted\n")
    parked = tmp_path / "parked"
    away.parent.rename(parked)  # the disk is unmounted
    ws = prepare_workspace(project, SID)
    shutil.rmtree(ws.target_dir)
    prepare_workspace(project, SID)  # its own missing worktree is re-created
    SessionStore(project).create(SessionRecord(id="abcdef02", status="completed"))
    prepare_workspace(project, "abcdef02")
    from gzia.sessions.delete import delete_session

    store = SessionStore(project)
    delete_session(store, store.load("abcdef02"), force=True)
    parked.rename(away.parent)  # mounted again
    assert run_git(away, "status", "--porcelain") == "?? wip.txt\n"
    assert f"worktree {away}\n" in run_git(repo, "worktree", "list", "--porcelain")


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "another gz-ia process has been creating a worktree in {root} for a minute: "
           "try again"),
    ("es", "otro proceso de gz-ia lleva un minuto creando un worktree en {root}: "
           "vuelve a intentarlo"),
])
def test_worktree_adds_take_turns_and_a_held_turn_is_locked_not_a_git_failure(
        project: Project, repo: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
        message: str) -> None:
    """git does not serialize ``worktree add`` itself (20 at once failed reading another's
    half-written ``commondir``): gz-ia's adds take turns on ``.harness/worktrees.lock``."""
    import fcntl
    import os

    from gzia.contract import LockedError
    from gzia.i18n import set_language
    from gzia.sessions import workspace

    monkeypatch.setattr(workspace, "WORKTREE_ADD_LOCK_TIMEOUT", 0.2)
    (repo / ".harness").mkdir(exist_ok=True)
    fd = os.open(repo / ".harness" / "worktrees.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another gz-ia's add, in progress
    set_language(lang)
    try:
        with pytest.raises(LockedError) as raised:
            prepare_workspace(project, SID)
        assert str(raised.value) == message.format(root=repo)
        assert not (repo / ".harness" / "worktrees" / SID).exists()
        assert f"harness/{SID}" not in run_git(repo, "branch", "--list")
        fcntl.flock(fd, fcntl.LOCK_UN)  # its turn ends: the next add goes ahead
        assert prepare_workspace(project, SID).is_isolated
    finally:
        set_language(None)
        os.close(fd)
