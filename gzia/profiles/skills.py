"""The skills catalogue: directories holding a ``SKILL.md`` with YAML front matter.

Searched in the user's config dir (``skills``, ``.skills``), then the project
(``.harness/skills``, ``skills``, ``.skills``); a later directory's skill replaces an
earlier one of the same name. A ``SKILL.md`` that cannot be read is a notice, never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gzia.profiles.model import Notice, Skill
from gzia.profiles.profile_file import NAME_PATTERN

SKILL_FILE = "SKILL.md"
FENCE = "---"


class SkillFileError(ValueError):
    """What is wrong with a ``SKILL.md``."""


def load_skills(roots: Iterable[tuple[Path, str]]) -> tuple[dict[str, Skill], list[Notice]]:
    """Every skill under ``roots`` (``(directory, scope)``, in search order)."""
    skills: dict[str, Skill] = {}
    notices: list[Notice] = []
    for root, scope in roots:
        for directory in subdirectories(root):
            if not (directory / SKILL_FILE).is_file():
                continue
            try:
                skill = read_skill(directory, scope)
            except SkillFileError as exc:
                notices.append(Notice("SKILL_INVALID", "profiles.skill_invalid",
                                      {"path": str(directory / SKILL_FILE), "detail": str(exc)}))
                continue
            skills.pop(skill.name, None)  # keeps the listing in the order the winners were found
            skills[skill.name] = skill
    return skills, notices


def read_skill(directory: Path, scope: str) -> Skill:
    meta = front_matter(directory / SKILL_FILE)
    name = meta.get("name", directory.name)
    description = meta.get("description")
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        raise SkillFileError(f"invalid name {name!r}")
    if not isinstance(description, str) or not description.strip():
        raise SkillFileError("the front matter has no 'description'")
    return Skill(name, " ".join(description.split()), directory, scope)


def front_matter(path: Path) -> dict[str, Any]:
    """The YAML mapping between the opening ``---`` line and the next ``---`` line."""
    import yaml  # type: ignore[import-untyped]  # PyYAML ships no type hints

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SkillFileError(str(exc)) from None
    if not lines or lines[0].strip() != FENCE:
        raise SkillFileError("no YAML front matter (the file must start with '---')")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == FENCE), None)
    if end is None:
        raise SkillFileError("the front matter has no closing '---'")
    try:
        meta = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError as exc:
        raise SkillFileError(" ".join(str(exc).split())) from None
    if not isinstance(meta, dict):
        raise SkillFileError("the front matter is not a mapping")
    return meta


def subdirectories(root: Path) -> list[Path]:
    try:
        return sorted(entry for entry in root.iterdir() if entry.is_dir())
    except OSError:
        return []
