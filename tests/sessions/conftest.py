"""Fixtures for the session tests: real git repositories in tmp_path."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project, find_project
from gzia.sessions.store import SessionStore

GitRunner = Callable[..., str]


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits made by the tests themselves; gz-ia must not rely on these."""
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Author")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "author@example.invalid")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def run_git(cwd: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {args} failed: {done.stderr}")
    return done.stdout


@pytest.fixture
def git() -> GitRunner:
    return run_git


def make_repo(path: Path, *, commit: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    run_git(path, "init", "-q", "-b", "main")
    if commit:
        (path / "README.md").write_text("hello\n")
        run_git(path, "add", "README.md")
        run_git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


@pytest.fixture
def project(repo: Path) -> Project:
    return find_project(repo)


@pytest.fixture
def store(project: Project) -> SessionStore:
    return SessionStore(project)
