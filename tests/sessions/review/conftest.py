"""Fixtures of the review tests: a bare repository as ``origin``, a finished session with
work to publish, the forges' fakes and the test proxy (tests/fakes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gzia.sessions.project import Project
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.pulls import PullsFake
from tests.sessions.session_testkit import commit_file, make_session, run_git

SID = "ab12cd34"
PROMPT = "fix the login bug\nthe form forgets the user name"


@pytest.fixture
def remote(tmp_path: Path, repo: Path) -> Path:
    """A bare repository as ``origin``, at ``.../acme/widget.git`` (its owner and name)."""
    bare = tmp_path / "remotes" / "acme" / "widget.git"
    bare.parent.mkdir(parents=True)
    run_git(tmp_path, "init", "-q", "--bare", str(bare))
    run_git(repo, "remote", "add", "origin", str(bare))
    return bare


@pytest.fixture
def session(project: Project, repo: Path, remote: Path) -> Path:
    """A finished session with one commit and one uncommitted file; its worktree."""
    make_session(project, SID, initial_prompt=PROMPT)
    worktree = project.worktrees_dir / SID
    commit_file(worktree, "login.py", "print('fixed')\n", "fix login")
    (worktree / "notes.txt").write_text("left uncommitted\n")
    return worktree


def forgejo_env(fake: PullsFake, **more: str) -> dict[str, str]:
    return {"GZ_FORGEJO_URL": fake.root_url, "GZ_FORGEJO_TOKEN": fake.token, **more}


def github_env(fake: PullsFake) -> dict[str, str]:
    return {"GZ_FORGE": "github", "GZ_GITHUB_API_URL": fake.api_url,
            "GZ_GITHUB_TOKEN": fake.token}
