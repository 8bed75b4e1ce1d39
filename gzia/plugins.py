"""The one plugin loader, for the entry-point groups gz-ia knows.

Built-in features register through the same entry points as third-party plugins
(distribution ``gz-ia``). Third-party plugins come from the Python environment or from
the plugins directories (``GZ_PLUGIN_PATH``, else ``<data dir>/plugins``), which live
outside the zipapp so updates never delete them: ``pip install --target <dir> <plugin>``
puts a plugin there. Each plugin is loaded on its own; one that fails to import becomes
a :class:`PluginFailure`, never a crash of unrelated commands. Two plugins claiming one
name is a failure of the later claimant (a built-in always keeps its name).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from gzia.config import paths

GROUPS = ("gzia.commands", "gzia.drivers", "gzia.tools")
BUILTIN_DISTRIBUTION = "gz-ia"
ORIGIN_BUILTIN = "builtin"
ORIGIN_INSTALLED = "installed"
ORIGIN_PLUGIN_DIR = "plugin-dir"


@dataclass(frozen=True)
class PluginInfo:
    group: str
    name: str
    value: str
    distribution: str | None
    origin: str

    def to_json(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "name": self.name,
            "value": self.value,
            "distribution": self.distribution,
            "origin": self.origin,
        }


@dataclass(frozen=True)
class PluginFailure:
    info: PluginInfo
    error: str

    def to_json(self) -> dict[str, Any]:
        return {**self.info.to_json(), "error": self.error}


@dataclass
class LoadResult:
    loaded: dict[str, Any] = field(default_factory=dict)
    infos: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)


@dataclass
class Discovery:
    """What a group offers before anything is imported."""

    available: dict[str, tuple[PluginInfo, EntryPoint]] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)


_activated_dirs: set[str] = set()


def activate_plugin_dirs(environ: Mapping[str, str] | None = None) -> list[str]:
    """Put the existing plugins directories on ``sys.path`` (once each)."""
    added = []
    for directory in paths(environ).plugin_dirs:
        text = str(directory)
        if text not in _activated_dirs and directory.is_dir():
            sys.path.append(text)
            _activated_dirs.add(text)
            added.append(text)
    return added


def discover(group: str, environ: Mapping[str, str] | None = None) -> Discovery:
    env = os.environ if environ is None else environ
    activate_plugin_dirs(env)
    disabled = _disabled_names(env)
    found = Discovery()
    seen: set[tuple[str | None, str, str]] = set()
    for ep in sorted(entry_points(group=group), key=_builtin_first):
        info = _describe(group, ep)
        if (info.distribution, info.name, info.value) in seen:
            continue  # the same distribution seen twice on sys.path
        seen.add((info.distribution, info.name, info.value))
        if info.origin != ORIGIN_BUILTIN and _is_disabled(info, disabled):
            continue
        if info.name in found.available:
            owner = found.available[info.name][0]
            found.failures.append(PluginFailure(info, _conflict_message(info, owner)))
            continue
        found.available[info.name] = (info, ep)
    return found


def load_group(group: str, environ: Mapping[str, str] | None = None) -> LoadResult:
    discovery = discover(group, environ)
    result = LoadResult(failures=list(discovery.failures))
    for name, (info, ep) in discovery.available.items():
        loaded = load_entry_point(info, ep)
        if isinstance(loaded, PluginFailure):
            result.failures.append(loaded)
        else:
            result.loaded[name] = loaded
            result.infos[name] = info
    return result


def load_entry_point(info: PluginInfo, ep: EntryPoint) -> Any:
    """Import one plugin; any exception becomes a :class:`PluginFailure`."""
    try:
        return ep.load()
    except Exception as exc:
        return PluginFailure(info, f"{type(exc).__name__}: {exc}")


def _describe(group: str, ep: EntryPoint) -> PluginInfo:
    dist = ep.dist
    name = dist.metadata["Name"] if dist is not None else None
    if name == BUILTIN_DISTRIBUTION:
        origin = ORIGIN_BUILTIN
    elif dist is not None and _in_plugin_dir(dist):
        origin = ORIGIN_PLUGIN_DIR
    else:
        origin = ORIGIN_INSTALLED
    return PluginInfo(group, ep.name, ep.value, name, origin)


def _in_plugin_dir(dist: Any) -> bool:
    location = str(getattr(dist, "_path", ""))
    return any(location.startswith(d + os.sep) for d in _activated_dirs)


def _builtin_first(ep: EntryPoint) -> tuple[int, str]:
    dist = ep.dist
    is_builtin = dist is not None and dist.metadata["Name"] == BUILTIN_DISTRIBUTION
    return (0 if is_builtin else 1, ep.name)


def _disabled_names(environ: Mapping[str, str]) -> set[str]:
    raw = environ.get("GZ_DISABLE_PLUGINS", "")
    return {part.strip().lower() for part in raw.split(",") if part.strip()}


def _is_disabled(info: PluginInfo, disabled: set[str]) -> bool:
    if disabled & {"all", "1", "true", "yes"}:
        return True
    return info.name.lower() in disabled or (info.distribution or "").lower() in disabled


def _conflict_message(info: PluginInfo, owner: PluginInfo) -> str:
    from gzia.i18n import t

    return t(
        "plugins.name_conflict", name=info.name, group=info.group,
        owner=owner.distribution or owner.value, claimant=info.distribution or info.value,
    )
