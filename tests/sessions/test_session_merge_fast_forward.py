"""A merge into a base that did not move fast-forwards: no merge commit, so the commits
gz-ia makes for the session name it themselves, ``-m`` is never dropped (it makes a merge
commit, or waits in MERGE_MSG/SQUASH_MSG with ``--no-commit``), the output says that no
merge commit was made, and no identity warning is given for a commit nobody made."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
SID = "abcdef01"
PROMPT = "fix the login bug\nthe form forgets the user name"


def _uncommitted_session(project: Project, **fields: object) -> Path:
    """A finished session whose agent left its work uncommitted; the base has not moved."""
    make_session(project, SID, **fields)
    worktree = project.worktrees_dir / SID
    (worktree / "login.py").write_text("fixed\n")
    return worktree


def _log(root: Path, count: int) -> list[str]:
    return run_git(root, "log", f"-{count}", "--format=%s").splitlines()


def _parents(root: Path) -> int:
    return len(run_git(root, "log", "-1", "--format=%P").split())


def test_a_fast_forward_leaves_a_subject_that_names_the_session(cli: Cli,
                                                                project: Project) -> None:
    _uncommitted_session(project, initial_prompt=PROMPT)
    root = str(project.root)
    result = cli("session", "merge", SID, "--json", "-d", root)
    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert (data["fast_forward"], data["head"]) == (True, data["session"]["merged_commit"])
    assert _log(project.root, 2) == ["harness(abcdef01): fix the login bug", "initial"]
    assert _parents(project.root) == 1


@pytest.mark.parametrize(("env", "line"), [
    ({}, "Fast-forward of main: no merge commit was made."),
    ({"GZ_LANG": "es"}, "Avance rápido de main: no se hizo un commit de fusión."),
])
def test_the_output_says_no_merge_commit_was_made(cli: Cli, project: Project,
                                                  env: dict[str, str], line: str) -> None:
    _uncommitted_session(project)
    result = cli("session", "merge", SID, "-d", str(project.root), env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == line


def test_message_makes_a_merge_commit_though_the_base_did_not_move(cli: Cli,
                                                                   project: Project) -> None:
    _uncommitted_session(project, initial_prompt=PROMPT)
    result = cli("session", "merge", SID, "-m", "Fix login (JIRA-7)", "--json",
                 "-d", str(project.root))
    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["fast_forward"] is False
    assert _log(project.root, 1) == ["Fix login (JIRA-7)"]
    assert _parents(project.root) == 2
    merged = run_git(project.root, "log", "-1", "--format=%s", "HEAD^2").strip()
    assert merged == "harness(abcdef01): fix the login bug"
    human = cli("session", "merge", SID, "-d", str(project.root))  # now up to date
    assert "Fast-forward" not in human.stdout


@pytest.mark.parametrize(("options", "message_file", "subject"), [
    (["--no-commit", "-m", "Fix login (JIRA-7)"], "MERGE_MSG", "Fix login (JIRA-7)"),
    (["--no-commit"], "MERGE_MSG", "harness(abcdef01): fix the login bug"),
    (["--squash", "--no-commit", "-m", "Fix login (JIRA-7)"], "SQUASH_MSG",
     "Fix login (JIRA-7)"),
    (["--squash", "--no-commit"], "SQUASH_MSG", "harness(abcdef01): fix the login bug (squash)"),
])
def test_no_commit_keeps_the_message_for_the_users_commit(
        cli: Cli, project: Project, options: list[str], message_file: str,
        subject: str) -> None:
    _uncommitted_session(project, initial_prompt=PROMPT)
    result = cli("session", "merge", SID, *options, "-d", str(project.root))
    assert result.exit_code == 0, result.stderr
    staged = (project.root / ".git" / message_file).read_text(encoding="utf-8")
    assert staged.splitlines()[0] == subject
    run_git(project.root, "commit", "-q", "--no-edit")
    assert _log(project.root, 1) == [subject]


def test_a_fast_forward_onto_the_agents_commits_gives_no_identity_warning(
        cli: Cli, project: Project, isolated_env: Path) -> None:
    make_session(project, SID)
    commit_file(project.worktrees_dir / SID, "feature.txt", "feature\n", "agent: feature")
    (isolated_env / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    env = {"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": ""}
    result = cli("session", "merge", SID, "--json", "-d", str(project.root), env=env)
    assert result.exit_code == 0, result.stderr
    assert (result.json["data"]["fast_forward"], result.json["warnings"]) == (True, [])
    assert _log(project.root, 1) == ["agent: feature"]


def test_a_fast_forward_onto_gz_ias_own_commit_says_what_it_committed(
        cli: Cli, project: Project, isolated_env: Path) -> None:
    _uncommitted_session(project)
    (isolated_env / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    env = {"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": ""}
    result = cli("session", "merge", SID, "--json", "-d", str(project.root), env=env)
    assert result.exit_code == 0, result.stderr
    warning = result.json["warnings"][0]
    assert (warning["code"], warning["message"].split(";")[0]) == (
        "NO_GIT_IDENTITY", "git has no user.name/user.email here: gz-ia committed the work of "
                           "session 'abcdef01' as gz-ia <gz-ia@localhost>")
    assert len(result.json["warnings"]) == 1
