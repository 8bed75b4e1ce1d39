"""``session update``: the latest base brought into a session's branch, on real
repositories; the base is only read, and a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
SID = "abcdef01"


def base_state(root: Path) -> tuple[str, str, str]:
    return (run_git(root, "rev-parse", "main"), run_git(root, "symbolic-ref", "HEAD"),
            run_git(root, "status", "--porcelain"))


def worktree_state(worktree: Path) -> tuple[str, str, str]:
    return (run_git(worktree, "rev-parse", "HEAD"),
            run_git(worktree, "status", "--porcelain", "--untracked-files=all"),
            run_git(worktree, "diff", "HEAD"))


@pytest.fixture
def worktree(project: Project) -> Path:
    """A finished session branched from main: one commit of its own and an uncommitted
    file; then main moves on with a commit of its own."""
    make_session(project, SID)
    tree = project.worktrees_dir / SID
    commit_file(tree, "feature.txt", "feature\n", "agent: feature")
    (tree / "notes.txt").write_text("uncommitted\n")
    commit_file(project.root, "upstream.txt", "upstream\n", "main moves on")
    return tree


def test_update_rebases_the_session_onto_the_new_base(cli: Cli, project: Project,
                                                     worktree: Path) -> None:
    root = project.root
    before = base_state(root)
    result = cli("--json", "session", "update", SID, "-d", str(root))

    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    main = run_git(root, "rev-parse", "main").strip()
    assert (data["method"], data["base"], data["base_commit"], data["already_up_to_date"]) == (
        "rebase", "main", main, False)
    assert run_git(worktree, "log", "--format=%s", "-3").splitlines() == [
        f"harness({SID}): session changes", "agent: feature", "main moves on"]
    assert (worktree / "upstream.txt").read_text() == "upstream\n"
    assert (worktree / "notes.txt").read_text() == "uncommitted\n"  # committed, kept
    assert data["head"] == run_git(worktree, "rev-parse", "HEAD").strip()
    assert SessionStore(project).load(SID).base_commit == main
    assert base_state(root) == before


def test_update_with_merge_makes_a_merge_commit(cli: Cli, project: Project,
                                                worktree: Path) -> None:
    result = cli("session", "update", SID, "--merge", "-d", str(project.root))
    main = run_git(project.root, "rev-parse", "main").strip()
    assert (result.exit_code, result.stdout) == (
        0, f"✓ main ({main[:12]}) merged into session '{SID}'.\n")
    parents = run_git(worktree, "log", "-1", "--format=%P").split()
    assert parents[1] == main
    assert run_git(worktree, "log", "-1", "--format=%s").strip() == (
        f"Merge main into session {SID}")


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "✧ Session 'abcdef01' is already up to date with main.\n"),
    ("es", "✧ La sesión 'abcdef01' ya está al día con main.\n"),
])
def test_a_second_update_is_up_to_date(cli: Cli, project: Project, worktree: Path,
                                       lang: str, line: str) -> None:
    assert cli("session", "update", SID, "-d", str(project.root)).exit_code == 0
    head = worktree_state(worktree)
    result = cli("session", "update", SID, "-d", str(project.root), env={"GZ_LANG": lang})
    assert (result.exit_code, result.stdout) == (0, line)
    assert worktree_state(worktree) == head


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Error: updating session 'abcdef01' from main would conflict in 1 file: "
           "feature.txt. Nothing was changed\n"
           "hand it to an agent with gz-ia session update abcdef01 --resolve-with-agent, or "
           "resolve it yourself in the worktree (git merge main there)\n"),
    ("es", "Error: actualizar la sesión 'abcdef01' desde main entraría en conflicto en 1 "
           "archivo: feature.txt. No se ha cambiado nada\n"
           "pásaselo a un agente con gz-ia session update abcdef01 --resolve-with-agent, o "
           "resuélvelo tú en el worktree (git merge main allí)\n"),
])
def test_a_conflict_is_refused_and_nothing_moves(cli: Cli, project: Project, worktree: Path,
                                                 lang: str, message: str) -> None:
    commit_file(project.root, "feature.txt", "the base's own version\n", "main: feature")
    before, inside = base_state(project.root), worktree_state(worktree)
    result = cli("session", "update", SID, "-d", str(project.root), env={"GZ_LANG": lang})
    assert (result.exit_code, result.stderr) == (1, message)
    assert (base_state(project.root), worktree_state(worktree)) == (before, inside)


def test_a_conflict_only_in_uncommitted_work_is_found(cli: Cli, project: Project,
                                                      worktree: Path) -> None:
    commit_file(project.root, "notes.txt", "the base's notes\n", "main: notes")
    inside = worktree_state(worktree)
    result = cli("--json", "session", "update", SID, "-d", str(project.root))
    (error,) = result.json["errors"]
    assert (result.exit_code, error["code"], error["details"]["files"]) == (
        1, "CONFLICT", ["notes.txt"])
    assert worktree_state(worktree) == inside


def test_a_rebase_that_stops_half_way_is_put_back(cli: Cli, project: Project,
                                                  worktree: Path) -> None:
    """Two commits that change a file back and forth: the end states agree with the base,
    so the whole would merge, but replaying the first commit conflicts."""
    commit_file(worktree, "README.md", "session's\n", "agent: readme")
    commit_file(worktree, "README.md", "hello\n", "agent: readme back")
    commit_file(project.root, "README.md", "base's\n", "main: readme")
    inside = worktree_state(worktree)
    result = cli("--json", "session", "update", SID, "-d", str(project.root))
    assert result.exit_code == 1
    (error,) = result.json["errors"]
    assert (error["code"], error["details"]["files"]) == ("CONFLICT", ["README.md"])
    assert error["message"].endswith("The branch is back as it was")
    head, status, _ = worktree_state(worktree)
    assert status == ""  # the uncommitted notes were committed before the rebase
    assert run_git(worktree, "log", "-1", "--format=%s").strip() == (
        f"harness({SID}): session changes")
    assert inside[0] != head
    assert not (Path(run_git(worktree, "rev-parse", "--absolute-git-dir").strip())
                / "rebase-merge").exists()
    merged = cli("session", "update", SID, "--merge", "-d", str(project.root))
    assert merged.exit_code == 0, merged.stderr


def test_running_direct_and_commit_based_sessions_are_refused(cli: Cli, project: Project,
                                                              worktree: Path) -> None:
    SessionStore(project).update(SID, lambda r: setattr(r, "base_branch", None))
    result = cli("--json", "session", "update", SID, "-d", str(project.root))
    (error,) = result.json["errors"]
    assert (result.exit_code, error["code"]) == (2, "INVALID_INPUT")
    assert error["message"] == (f"session '{SID}' was branched from a commit, not a branch: it "
                                "has no base to update from")

    make_session(project, "abcdef02", status="running", pid=1)
    running = cli("--json", "session", "update", "abcdef02", "-d", str(project.root))
    assert running.json["errors"][0]["code"] == "CONFLICT"


def test_update_fetches_a_session_branched_from_a_remote(cli: Cli, project: Project,
                                                         worktree: Path,
                                                         tmp_path: Path) -> None:
    root = project.root
    bare = tmp_path / "origin.git"
    run_git(tmp_path, "init", "-q", "--bare", str(bare))
    run_git(root, "remote", "add", "origin", str(bare))
    run_git(root, "push", "-q", "origin", "main")
    SessionStore(project).update(SID, lambda r: setattr(r, "base_remote", "origin"))
    other = tmp_path / "other"
    run_git(tmp_path, "clone", "-q", str(bare), str(other))
    run_git(other, "-c", "user.name=O", "-c", "user.email=o@example.com", "commit", "-q",
            "--allow-empty", "-m", "remote moves on")
    run_git(other, "push", "-q", "origin", "main")
    local_main = run_git(root, "rev-parse", "main")

    result = cli("--json", "session", "update", SID, "-d", str(root))
    assert result.exit_code == 0, result.stderr
    remote_main = run_git(bare, "rev-parse", "main").strip()
    assert (result.json["data"]["base"], result.json["data"]["base_commit"]) == (
        "origin/main", remote_main)
    assert run_git(worktree, "log", "-3", "--format=%s").splitlines()[-1] == "remote moves on"
    assert run_git(root, "rev-parse", "main") == local_main
