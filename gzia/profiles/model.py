"""What a profile and a skill are, once read from disk."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import WarningCode

SCOPE_PROJECT = "project"
SCOPE_GLOBAL = "global"


@dataclass(frozen=True)
class Skill:
    """A directory holding ``SKILL.md`` (YAML front matter: ``name``, ``description``)."""

    name: str
    description: str
    path: Path
    scope: str

    @property
    def category(self) -> str:
        """The name's prefix before ``-`` (``git-commit`` → ``git``), as the original did."""
        return self.name.split("-", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "category": self.category,
                "scope": self.scope, "path": str(self.path)}


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    path: Path
    """The profile's directory."""
    scope: str
    agents_file: Path | None
    skills: tuple[str, ...] = ()
    mcp_servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "description": self.description, "scope": self.scope,
            "path": str(self.path),
            "agents_file": str(self.agents_file) if self.agents_file else None,
            "skills": list(self.skills), "mcp_servers": self.mcp_servers, "env": self.env,
        }


@dataclass(frozen=True)
class Notice:
    """A problem found while reading profiles or skills: a warning, never a crash."""

    code: WarningCode
    key: str
    params: dict[str, str]
