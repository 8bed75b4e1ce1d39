"""What a session's profiles add up to: instructions, skills, MCP servers and env.

Everything is resolved before anything starts: an unknown profile or skill, two profiles
giving one server or variable different values, a variable that is gz-ia's own
(``GIT_CONFIG*``, ``GZ_*``: the guardrails and the projection's excludes travel in them),
or a ``${NAME}`` that the agent's environment does not have (gz-ia's withheld credentials
included), is an error while nothing has been created yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import ConflictError, InvalidInputError, NotFoundError
from gzia.i18n import N_
from gzia.profiles.catalog import Catalog
from gzia.profiles.mcp import RESERVED_SERVER
from gzia.profiles.model import Profile

_MSG_COLLISION: dict[object, str] = {
    "server": N_("MCP server '{item}' is defined differently by profiles '{first}' and '{second}'"),
    "variable": N_("env variable '{item}' is set differently by profiles '{first}' and '{second}'"),
}

REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
RESERVED_PREFIXES = ("GIT_CONFIG", "GZ_")
"""gz-ia's own variables: the agent's git configuration (guardrails, excludes) and
gz-ia's settings and session parameters. A profile may set none of them."""


@dataclass(frozen=True)
class Bundle:
    names: tuple[str, ...]
    instructions: str = ""
    """The profiles' agents files, in the order the profiles were given."""
    skills: dict[str, Path] = field(default_factory=dict)
    servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    """Values with every ``${NAME}`` replaced from the agent's environment."""


def resolve_bundle(catalog: Catalog, names: Sequence[str], environ: Mapping[str, str], *,
                   withheld: Collection[str] = ()) -> Bundle:
    """``environ``: the environment the agent gets (gz-ia's credentials already out);
    ``withheld``: the names taken out of it, named as such when a profile asks for one."""
    profiles = [catalog.profile(name) for name in dict.fromkeys(names)]
    _merged(profiles, lambda p: p.env, "variable")  # two different values: an error
    for profile in profiles:
        _refuse_reserved(profile)
    env = {name: _expand(profile, name, value, environ, withheld)
           for profile in profiles for name, value in profile.env.items()}
    return Bundle(
        names=tuple(p.name for p in profiles),
        instructions="".join(_instructions(p) for p in profiles),
        skills=_skills(catalog, profiles),
        servers=_merged(profiles, lambda p: p.mcp_servers, "server"),
        env=env,
    )


def _instructions(profile: Profile) -> str:
    if profile.agents_file is None:
        return ""
    text = profile.agents_file.read_text(encoding="utf-8").strip()
    return f"\n<!-- gz-ia profile: {profile.name} -->\n{text}\n" if text else ""


def _skills(catalog: Catalog, profiles: list[Profile]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for profile in profiles:
        for name in profile.skills:
            skill = catalog.skills.get(name)
            if skill is None:
                raise NotFoundError(N_("profile '{profile}' names skill '{skill}', which is not in "
                                       "the catalogue"),
                                    profile=profile.name, skill=name,
                                    hint_key=N_("gz-ia profile skills"),
                                    details={"profile": profile.name, "skill": name})
            found[name] = skill.path
    return found


def _merged(profiles: list[Profile], part: Callable[[Profile], Mapping[str, Any]],
            what: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for profile in profiles:
        for name, value in part(profile).items():
            if what == "server" and name == RESERVED_SERVER:
                raise InvalidInputError(N_("profile '{profile}' names an MCP server '{server}': "
                                           "that name is the session's own"),
                                        profile=profile.name,
                                        server=name, details={"profile": profile.name})
            if name in merged and merged[name] != value:
                raise ConflictError(_MSG_COLLISION[what], item=name,
                                    first=owner[name], second=profile.name,
                                    details={what: name, "profiles": [owner[name], profile.name]})
            merged[name], owner[name] = value, profile.name
    return merged


def _refuse_reserved(profile: Profile) -> None:
    for name in profile.env:
        if name.startswith(RESERVED_PREFIXES):
            raise InvalidInputError(N_("profile '{profile}' sets {name}, which is gz-ia's own "
                                       "(GIT_CONFIG*, GZ_*)"),
                                    profile=profile.name, name=name,
                                    hint_key=N_("remove {name} from the profile's env"),
                                    details={"profile": profile.name, "env": name})


def _expand(profile: Profile, name: str, value: str, environ: Mapping[str, str],
            withheld: Collection[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        variable = match.group(1)
        if variable in withheld:
            raise InvalidInputError(
                N_("profile '{profile}' asks for {variable} (for {name}), a credential gz-ia keeps "
                   "from agents"),
                profile=profile.name, variable=variable, name=name,
                hint_key=N_("give the agent a variable of its own: set it in gz-ia's environment "
                            "under another name"),
                details={"profile": profile.name, "variable": variable, "env": name})
        if variable not in environ:
            raise InvalidInputError(
                N_("profile '{profile}' needs {variable} (for {name}), which is not set"),
                profile=profile.name, variable=variable, name=name,
                hint_key=N_("set {variable} in gz-ia's environment, or remove it from the profile"),
                details={"profile": profile.name, "variable": variable, "env": name})
        return environ[variable]

    return REFERENCE.sub(replace, value)
