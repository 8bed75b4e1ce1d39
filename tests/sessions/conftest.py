"""Fixtures for the session tests: real git repositories in tmp_path."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gzia.sessions.project import Project, find_project
from gzia.sessions.store import SessionStore
from tests.sessions.session_testkit import make_repo, run_git

GitRunner = Callable[..., str]


@pytest.fixture
def git() -> GitRunner:
    return run_git


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


@pytest.fixture
def project(repo: Path) -> Project:
    return find_project(repo)


@pytest.fixture
def store(project: Project) -> SessionStore:
    return SessionStore(project)


@pytest.fixture(autouse=True)
def utc_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Human output shows local times: pin the zone so whole outputs can be compared."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
