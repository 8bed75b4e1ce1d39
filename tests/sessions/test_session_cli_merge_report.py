"""What ``session merge`` reports: a merge that changes nothing, the conflicting paths of
a file/directory conflict, and a conflict hint that works when the worktree has
uncommitted files in the way. Real repositories, through the CLI."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"
UP_TO_DATE = {
    "en": "✧ The branch is already up to date. Nothing to merge.\n",
    "es": "✧ La rama ya está actualizada. No hay cambios pendientes para fusionar.\n",
}


@pytest.fixture
def worktree(project: Project) -> Path:
    """A finished session whose agent committed one file."""
    make_session(project, SID)
    path = project.worktrees_dir / SID
    commit_file(path, "feature.txt", "feature\n", "agent: feature")
    return path


def _head(directory: Path) -> str:
    return run_git(directory, "rev-parse", "HEAD").strip()


def _merge_json(cli: Cli, root: Path, *flags: str) -> dict[str, object]:
    result = cli("session", "merge", SID, *flags, "--json", "-d", str(root))
    assert result.exit_code == 0, result.stdout
    data: dict[str, object] = result.json["data"]
    return data


def _up_to_date(cli: Cli, root: Path, *flags: str) -> dict[str, object]:
    return {"id": SID, "branch": f"harness/{SID}", "into": "main",
            "squash": "--squash" in flags, "no_commit": "--no-commit" in flags,
            "already_up_to_date": True, "files": [], "safety_commit": None,
            "head": _head(root), "fast_forward": False, "session": None}


@pytest.mark.parametrize("flags", [("--squash",), ("--squash", "--no-commit"), ()])
def test_a_second_merge_after_a_squash_changes_nothing_and_says_so(
    cli: Cli, project: Project, worktree: Path, flags: tuple[str, ...]
) -> None:
    root = project.root
    assert _merge_json(cli, root, "--squash")["files"] == ["feature.txt"]
    head, record = _head(root), SessionStore(project).load(SID).to_json()
    data = _merge_json(cli, root, *flags)
    assert data == {**_up_to_date(cli, root, *flags), "session": record}
    assert _head(root) == head  # no commit, nothing staged, no merge in progress
    assert run_git(root, "status", "--porcelain", "--untracked-files=all") == ""
    assert not run_git(root, "rev-parse", "-q", "--verify", "MERGE_HEAD", check=False)
    assert SessionStore(project).load(SID).to_json() == record  # merged_at kept


@pytest.mark.parametrize(("env", "language"), [({}, "en"), (ES, "es")])
def test_a_second_squash_says_up_to_date_in_both_languages(
    cli: Cli, project: Project, worktree: Path, env: dict[str, str], language: str
) -> None:
    root = project.root
    assert cli("session", "merge", SID, "--squash", "-d", str(root)).exit_code == 0
    result = cli("session", "merge", SID, "--squash", "-d", str(root), env=env)
    assert (result.exit_code, result.stdout, result.stderr) == (0, UP_TO_DATE[language], "")


def test_an_up_to_date_merge_reports_the_base_head(cli: Cli, project: Project,
                                                   worktree: Path) -> None:
    root = project.root
    _merge_json(cli, root)
    data = _merge_json(cli, root)
    record = SessionStore(project).load(SID).to_json()
    assert data == {**_up_to_date(cli, root), "session": record}


def test_work_the_user_already_squashed_is_recorded_as_merged(
    cli: Cli, project: Project, worktree: Path
) -> None:
    """Merged by hand with git: nothing to merge, and ``delete`` must not then call the
    session's commits unmerged."""
    root = project.root
    run_git(root, "merge", "-q", "--squash", f"harness/{SID}")
    run_git(root, "commit", "-q", "-m", "by hand")
    data = _merge_json(cli, root)
    record = SessionStore(project).load(SID)
    assert record.merged_commit == _head(worktree)
    assert data == {**_up_to_date(cli, root), "session": record.to_json()}
    assert cli("session", "delete", SID, "-d", str(root)).exit_code == 0


@pytest.mark.parametrize("directory_in_base", [False, True])
def test_a_file_directory_conflict_names_the_path_itself(
    cli: Cli, project: Project, worktree: Path, directory_in_base: bool
) -> None:
    root = project.root
    file_side, directory_side = (worktree, root) if directory_in_base else (root, worktree)
    commit_file(file_side, "d", "a file\n", "d is a file")
    commit_file(directory_side, "d/x", "in a directory\n", "d is a directory")
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["details"]["files"]) == ("CONFLICT", ["d"])
    human = cli("session", "merge", SID, "-d", str(root), env=ES)
    assert human.stderr.splitlines()[0] == (
        "Error: conflicto al fusionar cambios de la sesión 'abcdef01' en 1 archivo: d. "
        "No se modificó nada: la base y el worktree permanecen intactos "
        "(inspecciona con 'gz-ia session path abcdef01')")


def test_a_conflicting_name_with_a_tilde_is_kept_as_it_is(cli: Cli, project: Project,
                                                           worktree: Path) -> None:
    root = project.root
    commit_file(root, "d~HEAD", "base\n", "user: add")
    commit_file(worktree, "d~HEAD", "session\n", "agent: add")
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.json["errors"][0]["details"]["files"] == ["d~HEAD"]


HINT_UNCOMMITTED = {
    "en": ("git merge would refuse to overwrite uncommitted files in the worktree "
           "(notes.txt): commit them there first (or remove them), then resolve in the "
           "worktree (git merge main there) and run gz-ia session merge abcdef01"),
    "es": ("git merge se negaría a sobrescribir archivos sin confirmar del worktree "
           "(notes.txt): confírmalos allí primero (o elimínalos), después resuelve en el "
           "worktree (git merge main allí) y reintenta gz-ia session merge abcdef01"),
}


@pytest.mark.parametrize(("env", "language"), [({}, "en"), (ES, "es")])
def test_the_hint_asks_to_commit_an_untracked_file_in_the_way_first(
    cli: Cli, project: Project, worktree: Path, env: dict[str, str], language: str
) -> None:
    root = project.root
    commit_file(root, "notes.txt", "base notes\n", "user: notes")
    (worktree / "notes.txt").write_text("session notes\n")
    (worktree / "other.txt").write_text("not in the way\n")
    result = cli("session", "merge", SID, "-d", str(root), env=env)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:] == [HINT_UNCOMMITTED[language]]
    refused = subprocess.run(["git", "merge", "main"], cwd=worktree, capture_output=True,
                             text=True, check=False)  # what the plain hint led to
    assert refused.returncode != 0
    assert "untracked working tree files would be overwritten" in refused.stderr
    assert "\tnotes.txt\n" in refused.stderr
    assert run_git(worktree, "status", "--porcelain").count("??") == 2


def test_following_the_uncommitted_hint_gets_the_session_merged(
    cli: Cli, project: Project, worktree: Path
) -> None:
    root = project.root
    commit_file(root, "notes.txt", "base notes\n", "user: notes")
    (worktree / "notes.txt").write_text("session notes\n")
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.json["errors"][0]["details"]["files"] == ["notes.txt"]
    run_git(worktree, "add", "-A")
    run_git(worktree, "commit", "-q", "-m", "agent: notes")
    assert run_git(worktree, "merge", "main", check=False) != ""  # the conflict itself
    (worktree / "notes.txt").write_text("both notes\n")
    run_git(worktree, "commit", "-q", "-am", "resolved")
    data = _merge_json(cli, root)
    assert (data["already_up_to_date"], data["files"]) == (False, ["feature.txt", "notes.txt"])
    assert (root / "notes.txt").read_text() == "both notes\n"
