"""The skills catalogue: directories holding a ``SKILL.md`` with YAML front matter.

Searched in the user's config dir (``skills``, ``.skills``), then the project
(``.harness/skills``, ``skills``, ``.skills``); a later directory's skill replaces an
earlier one of the same name. A ``SKILL.md`` that cannot be read is a notice, never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gzia.contract import WarningCode
from gzia.i18n import N_
from gzia.profiles.front_matter import SkillFileError, front_matter
from gzia.profiles.model import Notice, Skill
from gzia.profiles.profile_file import NAME_PATTERN

SKILL_FILE = "SKILL.md"


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
                notices.append(_invalid(directory / SKILL_FILE, exc))
                continue
            skills.pop(skill.name, None)  # keeps the listing in the order the winners were found
            skills[skill.name] = skill
    return skills, notices


def _invalid(path: Path, exc: SkillFileError) -> Notice:
    """``SKILL_INVALID``: the detail in English for scripts, and a limit passed also as
    its own message and number."""
    params = {"path": str(path), "detail": str(exc), **exc.params}
    return Notice(WarningCode.SKILL_INVALID,
                  exc.key or N_("skill '{path}' cannot be read: {detail}"), params)


def read_skill(directory: Path, scope: str) -> Skill:
    meta = front_matter(directory / SKILL_FILE)
    name = meta.get("name", directory.name)
    description = meta.get("description")
    if not isinstance(name, str):  # never shown: a value may expand to billions
        raise SkillFileError(f"invalid name: a {type(name).__name__}, not a string")
    if NAME_PATTERN.fullmatch(name) is None:
        raise SkillFileError(f"invalid name {name!r}")
    if not isinstance(description, str) or not description.strip():
        raise SkillFileError("the front matter has no 'description'")
    return Skill(name, " ".join(description.split()), directory, scope)


def subdirectories(root: Path) -> list[Path]:
    try:
        return sorted(entry for entry in root.iterdir() if entry.is_dir())
    except OSError:
        return []
