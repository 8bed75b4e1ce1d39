"""Fixtures of the driver tests: fake agents on a private PATH, a workspace, the language."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.i18n import set_language
from tests.drivers.driver_fakes import FakeAgents


@pytest.fixture
def fake_agents(tmp_path: Path) -> FakeAgents:
    return FakeAgents(tmp_path)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "worktree"
    path.mkdir()
    return path


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test once per language, chosen through ``GZ_LANG``."""
    monkeypatch.setenv("GZ_LANG", request.param)
    set_language(None)
    yield request.param
    set_language(None)



@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository with one commit, for sessions to make worktrees of."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "README").write_text("project\n")
    for args in (["init", "-q"], ["add", "README"], ["commit", "-qm", "initial"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, timeout=30)
    return root
