"""An edit git can only see by reading the file stays visible to every gz-ia command.

git trusts a file's stat data unless the file changed in the same second as its index
was written ("racily clean"). An agent that rewrites a file, keeping its size, in the
second its worktree was checked out leaves exactly such an edit. A copy of the index, or
an index written back, with a new timestamp would make git trust stale stat data and
hide the edit: from ``session diff``, from the merge's conflict check, and from
``session delete``'s count of what it would discard.

Each test builds that situation for real (the edit and the checkout in the same second,
verified, the command run in a later second) and runs it several times in a loop:
whether the edit lands in the checkout's second depends on timing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, run_git
from tests.shared_fixtures import trials

Cli = Callable[..., Result]
ROUNDS = trials(2, 10)
"""Repetitions of each scenario (each takes about a second: it waits for a new one)."""
SETUP_ATTEMPTS = 10
EDIT = "printf 'v6 ok\\n' > README.md"
"""The same size as the repository's ``hello\\n``: only the content tells them apart."""


def _index_of(worktree: Path) -> Path:
    return Path(run_git(worktree, "rev-parse", "--path-format=absolute", "--git-path",
                        "index").strip())


def _racily_clean(worktree: Path) -> bool:
    """The edit, the checkout and the index all in one second (what git must re-read)."""
    readme, index = (worktree / "README.md").stat(), _index_of(worktree).stat()
    entry = run_git(worktree, "ls-files", "--debug", "README.md")
    entry_ctime = int(entry.split("ctime: ")[1].split(":")[0])
    return int(readme.st_ctime) == int(readme.st_mtime) == entry_ctime == int(index.st_mtime)


def _sleep_into_next_second() -> None:
    time.sleep(1.02 - time.time() % 1.0)


def racy_edit(cli: Cli, project: Project) -> str:
    """A finished session whose only change is a racily clean edit of README.md."""
    for _ in range(SETUP_ATTEMPTS):
        _sleep_into_next_second()
        done = cli("--json", "exec", "--", "sh", "-c", EDIT, cwd=project.root)
        assert done.exit_code == 0, done.stdout + done.stderr
        session_id: str = done.json["data"]["id"]
        if _racily_clean(project.worktrees_dir / session_id):
            _sleep_into_next_second()  # every later index write lands in a later second
            return session_id
        assert cli("session", "delete", "--force", session_id, cwd=project.root).exit_code == 0
    pytest.fail("could not make the edit in the second of the checkout")


def _status(worktree: Path) -> str:
    return run_git(worktree, "--no-optional-locks", "status", "--porcelain")


def _refuse_commits(project: Project) -> Path:
    hook = project.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho not now >&2\nexit 1\n")
    hook.chmod(0o755)
    return hook


def _delete_refuses_the_edit(cli: Cli, project: Project, session_id: str) -> None:
    worktree = project.worktrees_dir / session_id
    assert _status(worktree) == " M README.md\n"
    refused = cli("--json", "session", "delete", session_id, cwd=project.root)
    assert refused.exit_code == 1
    assert refused.json["errors"][0]["code"] == "SAFETY_BLOCK"
    assert refused.json["errors"][0]["details"]["uncommitted_files"] == ["README.md"]
    assert (worktree / "README.md").read_text() == "v6 ok\n"


def test_diff_shows_a_racily_clean_edit(cli: Cli, project: Project) -> None:
    for _ in range(ROUNDS):
        session_id = racy_edit(cli, project)
        shown = cli("--json", "session", "diff", session_id, cwd=project.root)
        assert shown.exit_code == 0, shown.stdout
        assert shown.json["data"]["files"] == ["README.md"]
        assert "+v6 ok" in shown.json["data"]["diff"]
        _delete_refuses_the_edit(cli, project, session_id)


def test_a_refused_safety_commit_leaves_the_edit_visible(cli: Cli, project: Project) -> None:
    for _ in range(ROUNDS):
        session_id = racy_edit(cli, project)
        hook = _refuse_commits(project)
        merged = cli("--json", "session", "merge", session_id, cwd=project.root)
        assert merged.exit_code == 1
        assert merged.json["errors"][0]["code"] == "SAFETY_BLOCK"
        hook.unlink()
        _delete_refuses_the_edit(cli, project, session_id)


def test_a_conflict_with_a_racily_clean_edit_is_reported_as_a_conflict(
        cli: Cli, project: Project) -> None:
    for _ in range(ROUNDS):
        session_id = racy_edit(cli, project)
        commit_file(project.root, "README.md", "the base's own change\n", "base edit")
        merged = cli("--json", "session", "merge", session_id, cwd=project.root)
        assert merged.exit_code == 1
        error = merged.json["errors"][0]
        assert (error["code"], error["details"]["files"]) == ("CONFLICT", ["README.md"])
        _delete_refuses_the_edit(cli, project, session_id)
        run_git(project.root, "reset", "-q", "--hard", "HEAD~1")
