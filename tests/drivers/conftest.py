"""Fixtures of the driver tests: fake agents on a private PATH, a workspace, the language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.drivers.driver_fakes import FakeAgents
from tests.shared_fixtures import lang, repo

__all__ = ["lang", "repo"]


@pytest.fixture
def fake_agents(tmp_path: Path) -> FakeAgents:
    return FakeAgents(tmp_path)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "worktree"
    path.mkdir()
    return path
