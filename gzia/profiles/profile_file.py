"""Reading one profile directory: ``profile.json`` (or ``perfil.json``) and its agents file.

Keys, English or the original's Spanish: ``name``/``nombre``, ``description``/``descripcion``,
``agents_file``, ``skills``, ``mcp_servers``/``mcpServers``, ``env``. Anything else in the
wrong shape is a :class:`ProfileFileError` naming the key, never a crash.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

from gzia.profiles.model import Profile

PROFILE_FILES = ("profile.json", "perfil.json")
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
ENV_NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
AGENTS_FILE_SUFFIXES = ("agents.md", "agent.md")


class ProfileFileError(ValueError):
    """What is wrong with a profile file, in words fit for the user."""


def profile_file(directory: Path) -> Path | None:
    """The profile file of ``directory``: ``profile.json`` first, else ``perfil.json``."""
    return next((directory / n for n in PROFILE_FILES if (directory / n).is_file()), None)


def read_profile(directory: Path, scope: str) -> Profile:
    path = profile_file(directory)
    if path is None:
        raise ProfileFileError(f"no {' or '.join(PROFILE_FILES)}")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileFileError(f"{path.name}: {exc}") from None
    if not isinstance(document, dict):
        raise ProfileFileError(f"{path.name}: not a JSON object")
    name = _either(document, "name", "nombre", str) or directory.name
    if NAME_PATTERN.fullmatch(name) is None:
        raise ProfileFileError(f"invalid name '{name}'")
    return Profile(
        name=name,
        description=_either(document, "description", "descripcion", str) or "",
        path=directory,
        scope=scope,
        agents_file=_agents_file(directory, document.get("agents_file")),
        skills=tuple(_skills(document.get("skills"))),
        mcp_servers=_servers(_either(document, "mcp_servers", "mcpServers", dict) or {}),
        env=_env(document.get("env")),
    )


def _either(document: dict[str, Any], english: str, spanish: str, kind: type) -> Any:
    value = document.get(english, document.get(spanish))
    if value is not None and not isinstance(value, kind):
        raise ProfileFileError(f"'{english}' must be a {'string' if kind is str else 'object'}")
    return value


def _agents_file(directory: Path, declared: object) -> Path | None:
    if declared is None:
        found = sorted(p for p in directory.iterdir()
                       if p.is_file() and p.name.lower().endswith(AGENTS_FILE_SUFFIXES))
        return found[0] if found else None
    if not isinstance(declared, str) or not _inside(declared):
        raise ProfileFileError("'agents_file' must be a relative path inside the profile")
    path = directory / declared
    if not path.is_file():
        raise ProfileFileError(f"agents file '{declared}' not found")
    return path


def _inside(relative: str) -> bool:
    parts = PurePosixPath(relative).parts
    return bool(parts) and not PurePosixPath(relative).is_absolute() and ".." not in parts


def _skills(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(
            isinstance(s, str) and NAME_PATTERN.fullmatch(s) for s in value):
        raise ProfileFileError("'skills' must be a list of skill names")
    return list(dict.fromkeys(value))


def _servers(value: dict[str, Any]) -> dict[str, dict[str, Any]]:
    for name, server in value.items():
        if NAME_PATTERN.fullmatch(name) is None or not isinstance(server, dict):
            raise ProfileFileError(f"MCP server '{name}': must be a named object")
        local = isinstance(server.get("command"), str) and _strings(server.get("args", []))
        remote = isinstance(server.get("url"), str)
        if not (local or remote) or not _string_map(server.get("env", {})):
            raise ProfileFileError(
                f"MCP server '{name}': needs 'command' (with 'args' strings) or 'url'")
    return value


def _env(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not _string_map(value) or not all(
            ENV_NAME_PATTERN.fullmatch(k) for k in value):
        raise ProfileFileError("'env' must map variable names to strings")
    return dict(value)


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _string_map(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items())
