"""Fixtures for profiles: a real git project, the user's config dir, and writers."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gzia.i18n import set_language


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          timeout=30).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q")
    (root / "README").write_text("project\n")
    git(root, "add", "README")
    git(root, "commit", "-qm", "initial")
    return root


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's config dir, moved with GZ_CONFIG_DIR."""
    directory = tmp_path / "config"
    monkeypatch.setenv("GZ_CONFIG_DIR", str(directory))
    return directory


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("GZ_LANG", request.param)
    set_language(None)
    yield request.param
    set_language(None)


def write_profile(directory: Path, document: dict[str, Any] | str, *,
                  file: str = "profile.json", agents: dict[str, str] | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    text = document if isinstance(document, str) else json.dumps(document)
    (directory / file).write_text(text)
    for name, content in (agents or {}).items():
        (directory / name).write_text(content)
    return directory


def write_skill(root: Path, name: str, description: str | None = "does things",
                body: str = "Steps.\n", *, raw: str | None = None) -> Path:
    directory = root / name
    directory.mkdir(parents=True, exist_ok=True)
    if raw is None:
        meta = f"name: {name}\n" + (f"description: {description}\n" if description else "")
        raw = f"---\n{meta}---\n{body}"
    (directory / "SKILL.md").write_text(raw)
    return directory
