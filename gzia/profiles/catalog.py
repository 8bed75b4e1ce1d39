"""Where profiles and skills are found, and which one a name means.

Profiles: ``<project>/.harness/profiles``, ``<project>/profiles``, then ``<config
dir>/profiles`` (platformdirs; ``GZ_CONFIG_DIR`` moves it). The first place holding a
name wins; every profile it shadows is a ``PROFILE_SHADOWED`` notice naming both paths.
Two profiles of one name in the same place are an error: neither can be chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.config import paths
from gzia.contract import ConflictError, InvalidInputError, NotFoundError, WarningCode
from gzia.i18n import N_
from gzia.profiles.model import SCOPE_GLOBAL, SCOPE_PROJECT, Notice, Profile, Skill
from gzia.profiles.profile_file import NAME_PATTERN, ProfileFileError, profile_file, read_profile
from gzia.profiles.skills import load_skills, subdirectories

PROFILES_DIR = "profiles"
SKILLS_DIRS = ("skills", ".skills")


@dataclass(frozen=True)
class Locations:
    """Every directory profiles and skills are looked for in, in search order."""

    project: Path | None
    """The project's root: its ``.harness/`` holds gz-ia's own files."""
    config_dir: Path
    base: Path | None = None
    """The work tree the user is in (its committed ``profiles/``, ``skills/``); default:
    ``project``."""

    @property
    def tree(self) -> Path | None:
        return self.base if self.base is not None else self.project

    @property
    def profile_dirs(self) -> list[tuple[Path, str]]:
        found = [(self.config_dir / PROFILES_DIR, SCOPE_GLOBAL)]
        if self.project is not None:
            found[:0] = [(self.project / ".harness" / PROFILES_DIR, SCOPE_PROJECT),
                         ((self.tree or self.project) / PROFILES_DIR, SCOPE_PROJECT)]
        return found

    @property
    def skill_dirs(self) -> list[tuple[Path, str]]:
        found = [(self.config_dir / name, SCOPE_GLOBAL) for name in SKILLS_DIRS]
        if self.project is not None:
            tree = self.tree or self.project
            found += [(self.project / ".harness" / "skills", SCOPE_PROJECT),
                      *((tree / name, SCOPE_PROJECT) for name in SKILLS_DIRS)]
        return found

    def create_dir(self, *, global_scope: bool) -> Path:
        """Where ``profile create`` writes (and ``profile path`` points): the project's
        ``.harness/profiles``, or the config dir's ``profiles`` with ``--global``."""
        if global_scope or self.project is None:
            return self.config_dir / PROFILES_DIR
        return self.project / ".harness" / PROFILES_DIR


def locations(project: Path | None, base: Path | None = None,
              environ: Mapping[str, str] | None = None) -> Locations:
    return Locations(project, paths(environ).config_dir, base)


@dataclass
class Catalog:
    profiles: dict[str, Profile] = field(default_factory=dict)
    skills: dict[str, Skill] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    invalid: dict[str, Notice] = field(default_factory=dict)
    """Profiles that could not be read, by directory name: using one is an error."""

    def profile(self, name: str) -> Profile:
        if name in self.profiles:
            return self.profiles[name]
        if name in self.invalid:
            notice = self.invalid[name]
            raise InvalidInputError(N_("profile in '{path}' cannot be read: {detail}"),
                                    details=dict(notice.params),
                                    **notice.params)
        if NAME_PATTERN.fullmatch(name) is None:
            raise InvalidInputError(N_("invalid profile name: '{name}' (letters, digits, '.', '_' "
                                       "and '-')"),
                                    name=name, details={"name": name})
        raise NotFoundError(N_("profile '{name}' not found"), name=name,
                            hint_key=N_("gz-ia profile list"),
                            details={"name": name})


def load_catalog(where: Locations) -> Catalog:
    catalog = Catalog()
    for root, scope in where.profile_dirs:
        _add_place(catalog, _read_place(catalog, root, scope))
    catalog.skills, notices = load_skills(where.skill_dirs)
    catalog.notices += notices
    return catalog


def _read_place(catalog: Catalog, root: Path, scope: str) -> dict[str, Profile]:
    place: dict[str, Profile] = {}
    for directory in subdirectories(root):
        if profile_file(directory) is None:
            continue
        try:
            profile = _read_profile(directory, scope)
        except ProfileFileError as exc:
            notice = Notice(WarningCode.PROFILE_INVALID,
                            N_("profile in '{path}' cannot be read: {detail}"),
                            {"path": str(directory), "detail": str(exc)})
            catalog.notices.append(notice)
            catalog.invalid.setdefault(directory.name, notice)
            continue
        if profile.name in place:
            first, second = str(place[profile.name].path), str(directory)
            raise ConflictError(N_("profile collision: '{name}' is defined by both '{first}' and "
                                   "'{second}'"),
                                name=profile.name, first=first,
                                second=second,
                                hint_key=N_("rename one of them (the 'name' in its profile.json)"),
                                details={"name": profile.name, "paths": [first, second]})
        place[profile.name] = profile
    return place


def _read_profile(directory: Path, scope: str) -> Profile:
    try:
        return read_profile(directory, scope)
    except RecursionError:  # the json module's own bound on nesting: a hostile file
        raise ProfileFileError("the profile file nests too deeply") from None


def _add_place(catalog: Catalog, place: dict[str, Profile]) -> None:
    for name, profile in place.items():
        winner = catalog.profiles.get(name)
        if winner is None:
            catalog.profiles[name] = profile
            continue
        catalog.notices.append(Notice(WarningCode.PROFILE_SHADOWED,
                                      N_("profile '{name}' in '{shadowed}' is hidden by the one in "
                                         "'{winner}'"), {
            "name": name, "winner": str(winner.path), "shadowed": str(profile.path)}))


def create_profile(where: Locations, name: str, description: str, *,
                   global_scope: bool) -> Profile:
    """A new profile directory with ``profile.json`` and an agents file to fill in."""
    import json


    if NAME_PATTERN.fullmatch(name) is None:
        raise InvalidInputError(N_("invalid profile name: '{name}' (letters, digits, '.', '_' and "
                                   "'-')"),
                                name=name, details={"name": name})
    directory = where.create_dir(global_scope=global_scope) / name
    if directory.exists():
        raise ConflictError(N_("profile '{name}' already exists in '{dir}'"), name=name,
                            dir=str(directory),
                            details={"name": name, "path": str(directory)})
    agents_file = f"{name.upper()}-AGENTS.md"
    document = {"name": name, "description": description, "agents_file": agents_file,
                "skills": [], "mcp_servers": {}, "env": {}}
    write_atomic(directory / agents_file, f"# {name}\n\n".encode())
    write_atomic(directory / "profile.json", (json.dumps(document, indent=2) + "\n").encode())
    scope = SCOPE_GLOBAL if global_scope or where.project is None else SCOPE_PROJECT
    return read_profile(directory, scope)
