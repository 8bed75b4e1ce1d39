"""Fixtures and helpers that several test areas share: a real git project, the language.

A ``conftest.py`` imports the fixtures it offers (and names them in ``__all__``).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.i18n import set_language

THOROUGH = os.environ.get("GZ_TEST_THOROUGH") == "1"  # read before a test's isolation


def trials(usual: int, thorough: int) -> int:
    """How many random rounds a race test runs: ``usual`` in a normal run, ``thorough``
    when ``GZ_TEST_THOROUGH=1`` (a longer hunt for rare interleavings, README)."""
    return thorough if THOROUGH else usual


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd``; its whole standard output."""
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          timeout=30).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository (``tmp_path/project``) with one commit: a README."""
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q")
    (root / "README").write_text("project\n")
    git(root, "add", "README")
    git(root, "commit", "-qm", "initial")
    return root


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test once per language, chosen through ``GZ_LANG``."""
    monkeypatch.setenv("GZ_LANG", request.param)
    set_language(None)
    yield request.param
    set_language(None)
