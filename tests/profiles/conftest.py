"""Fixtures for profiles: a real git project, the user's config dir, and writers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.shared_fixtures import git, lang, repo

__all__ = ["git", "lang", "repo"]


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's config dir, moved with GZ_CONFIG_DIR."""
    directory = tmp_path / "config"
    monkeypatch.setenv("GZ_CONFIG_DIR", str(directory))
    return directory


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
