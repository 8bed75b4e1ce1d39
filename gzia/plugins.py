"""The one plugin loader, for the entry-point groups gz-ia knows.

Built-in features register through the same entry points as third-party plugins
(distribution ``gz-ia``). Third-party plugins come from the Python environment or from
the plugins directories (``GZ_PLUGIN_PATH``, else ``<data dir>/plugins``), which live
outside the zipapp so updates never delete them: ``pip install --target <dir> <plugin>``
puts a plugin there. Each plugin is loaded on its own; one that fails to import becomes
a :class:`PluginFailure`, never a crash of unrelated commands. Two plugins claiming one
name is a failure of the later claimant (a built-in always keeps its name).

Entry points are read straight from the ``entry_points.txt`` of each ``*.dist-info``
(or ``*.egg-info``) directory on ``sys.path``, in path order, the files pip writes. This
is kept for bench/startup.py (docs/performance.md): every command discovers the command
plugins, and ``importlib.metadata`` would cost about 20 ms more to import (the email
parser, zipfile, csv), more than a command's whole start-up budget over the interpreter.
tests/core/test_entry_points.py checks that both read the same entry points.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gzia.config import paths
from gzia.i18n import gettext
from gzia.settings import DISABLE_PLUGINS

GROUPS = ("gzia.commands", "gzia.drivers", "gzia.tools")
BUILTIN_DISTRIBUTION = "gz-ia"
ORIGIN_BUILTIN = "builtin"
ORIGIN_INSTALLED = "installed"
ORIGIN_PLUGIN_DIR = "plugin-dir"


@dataclass(frozen=True)
class EntryPoint:
    """One ``name = module:attr`` line of a distribution's entry_points.txt."""

    group: str
    name: str
    value: str
    distribution: str
    location: str  # the sys.path directory holding the distribution

    def load(self) -> Any:
        module_name, _, attrs = self.value.partition(":")
        target: Any = importlib.import_module(module_name.strip())
        for attr in filter(None, attrs.split("[")[0].strip().split(".")):
            target = getattr(target, attr)
        return target


def iter_entry_points(group: str, path: list[str] | None = None) -> Iterator[EntryPoint]:
    """Every entry point of ``group`` on ``path`` (default ``sys.path``), in path order."""
    for location in sys.path if path is None else path:
        try:
            names = sorted(os.listdir(location or "."))  # noqa: PTH208 - plain names, fast
        except (NotADirectoryError, FileNotFoundError, PermissionError):
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                file = os.path.join(location, name, "entry_points.txt")  # noqa: PTH118
                yield from _read_entry_points(file, group, _distribution_name(name), location)


def _distribution_name(directory_name: str) -> str:
    """``gz_ia-0.1.0.dist-info`` → ``gz-ia`` (the normalized project name)."""
    return re.sub(r"[-_.]+", "-", directory_name.split("-", maxsplit=1)[0]).lower()


def _read_entry_points(file: str, group: str, dist: str, location: str) -> Iterator[EntryPoint]:
    try:
        with open(file, encoding="utf-8") as handle:  # noqa: PTH123
            lines = handle.read().splitlines()
    except OSError:
        return
    section = None
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            yield EntryPoint(group, name.strip(), value.strip(), dist, location)


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
    for ep in sorted(iter_entry_points(group), key=_builtin_first):
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
    """Import one plugin; any exception becomes a :class:`PluginFailure`.

    Whatever the import prints goes to stderr: stdout may have to hold one JSON document.
    """
    import contextlib

    try:
        with contextlib.redirect_stdout(sys.stderr):  # import-time prints are never output
            return ep.load()
    except Exception as exc:
        return PluginFailure(info, f"{type(exc).__name__}: {exc}")


def _describe(group: str, ep: EntryPoint) -> PluginInfo:
    if ep.distribution == BUILTIN_DISTRIBUTION:
        origin = ORIGIN_BUILTIN
    elif ep.location in _activated_dirs:
        origin = ORIGIN_PLUGIN_DIR
    else:
        origin = ORIGIN_INSTALLED
    return PluginInfo(group, ep.name, ep.value, ep.distribution, origin)


def _builtin_first(ep: EntryPoint) -> int:
    return 0 if ep.distribution == BUILTIN_DISTRIBUTION else 1  # stable: keeps path order


def _disabled_names(environ: Mapping[str, str]) -> set[str]:
    raw = environ.get(DISABLE_PLUGINS.env, "")
    return {part.strip().lower() for part in raw.split(",") if part.strip()}


def _is_disabled(info: PluginInfo, disabled: set[str]) -> bool:
    if disabled & {"all", "1", "true", "yes"}:
        return True
    return info.name.lower() in disabled or (info.distribution or "").lower() in disabled


def _conflict_message(info: PluginInfo, owner: PluginInfo) -> str:
    return gettext(
        "'{name}' in {group} is already provided by {owner}; {claimant} cannot claim it",
        name=info.name, group=info.group,
        owner=owner.distribution or owner.value, claimant=info.distribution or info.value,
    )
