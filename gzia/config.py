"""Configuration: where gz-ia keeps its files, and every setting with its source.

Each setting is declared once in :mod:`gzia.settings` with its type, default and
environment variable. Above everything, the administrator's policy (:mod:`gzia.policy`).
A value comes from the environment (``GZ_*``) if set, else from the TOML
file, else from the built-in defaults (``gzia/defaults.toml``, embedded by build/shiv.sh
from an organisation's defaults file), else the hard default; :class:`Value` remembers
which. Paths come from platformdirs and can be moved with ``GZ_CONFIG_DIR``,
``GZ_DATA_DIR``, ``GZ_CACHE_DIR``, ``GZ_STATE_DIR`` and ``GZ_CONFIG_FILE``. The files
themselves are read (and ``config set`` writes) in :mod:`gzia.config_files`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from gzia.config_files import builtin_defaults, load_policy, read_config_file
from gzia.credentials import WITHHELD_NAMES_VARIABLE
from gzia.policy import POLICY_FILE_VARIABLE, Policy
from gzia.policy import SOURCE_POLICY as SOURCE_POLICY  # noqa: PLC0414 - re-exported
from gzia.setting_values import BOOLEAN_WORDS, SOURCE_BUILTIN, coerce, masked, setting_for
from gzia.settings import DEBUG, SETTINGS, Setting

APP_NAME = "gz-ia"

PATH_VARIABLES = ("GZ_CONFIG_DIR", "GZ_DATA_DIR", "GZ_CACHE_DIR", "GZ_STATE_DIR",
                  "GZ_CONFIG_FILE", "GZ_PLUGIN_PATH", POLICY_FILE_VARIABLE)
"""The variables that move gz-ia's files (:class:`Paths`); ``config path`` shows the file."""
INTERNAL_VARIABLES = (WITHHELD_NAMES_VARIABLE, "GZ_SESSION_ID", "GZ_GUARD_*")
"""Set by gz-ia itself, for its own processes and its agents' git guardrails: no settings
(docs/configuration.md, "Internal variables")."""

SOURCE_DEFAULT = "default"
SOURCE_FILE = "file"
SOURCE_ENV = "env"
SOURCE_PROJECT = "project"
PROJECT_CONFIG = Path(".harness") / "config.toml"
"""A project's own settings (those marked ``project``), under its root; never committed."""


@dataclass(frozen=True)
class Paths:
    """Every directory and file gz-ia uses outside a project, from one place."""

    environ: Mapping[str, str]

    def _dir(self, variable: str, kind: str) -> Path:
        override = self.environ.get(variable)
        if override:
            return Path(override).expanduser()
        import platformdirs  # lazy: start-up speed (only when no GZ_*_DIR names the dir)

        finder = getattr(platformdirs, f"user_{kind}_dir")
        return Path(finder(APP_NAME, appauthor=False))

    @cached_property
    def config_dir(self) -> Path:
        return self._dir("GZ_CONFIG_DIR", "config")

    @cached_property
    def data_dir(self) -> Path:
        return self._dir("GZ_DATA_DIR", "data")

    @cached_property
    def cache_dir(self) -> Path:
        return self._dir("GZ_CACHE_DIR", "cache")

    @cached_property
    def state_dir(self) -> Path:
        return self._dir("GZ_STATE_DIR", "state")

    @cached_property
    def config_file(self) -> Path:
        override = self.environ.get("GZ_CONFIG_FILE")
        return Path(override).expanduser() if override else self.config_dir / "config.toml"

    @cached_property
    def runtime_dir(self) -> Path:
        """Where background runs' control sockets live: ``$XDG_RUNTIME_DIR/gz-ia`` when that
        names an absolute directory of this user and a socket's path under it stays short,
        else ``/tmp/gz-ia-<uid>``. A Unix socket's path is limited to about 100 bytes (108
        on Linux, 104 on macOS), so sockets never live under a repository's path."""
        xdg = self.environ.get("XDG_RUNTIME_DIR", "")
        if xdg and Path(xdg).is_absolute() and _owned_dir(Path(xdg)):
            candidate = Path(xdg) / APP_NAME
            if len(os.fsencode(str(candidate))) + SOCKET_NAME_ROOM < MAX_SOCKET_PATH:
                return candidate
        return Path(f"/tmp/gz-ia-{os.getuid()}")  # noqa: S108 - private (0700, owner checked)

    @cached_property
    def plugin_dirs(self) -> tuple[Path, ...]:
        """``GZ_PLUGIN_PATH`` (os.pathsep-separated), else ``<data dir>/plugins``."""
        override = self.environ.get("GZ_PLUGIN_PATH")
        if override:
            return tuple(Path(p).expanduser() for p in override.split(os.pathsep) if p)
        return (self.data_dir / "plugins",)


MAX_SOCKET_PATH = 100
"""Bytes: below every system's ``sun_path`` limit (104 on macOS, 108 on Linux)."""
SOCKET_NAME_ROOM = 32
"""Bytes kept for a socket's name in the runtime dir (``<id>-<6 hex>.sock``)."""


def _owned_dir(path: Path) -> bool:
    import stat

    try:
        info = path.stat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def debug_requested(environ: Mapping[str, str] | None = None) -> bool:
    """``GZ_DEBUG``, read on every start without the file: any value but an empty one or a
    false word (``0``, ``false``, ``no``, ``off``) asks for tracebacks, so a typo never
    hides one."""
    raw = (os.environ if environ is None else environ).get(DEBUG.env, "").strip().lower()
    return raw != "" and BOOLEAN_WORDS.get(raw) is not False


def paths(environ: Mapping[str, str] | None = None) -> Paths:
    return Paths(os.environ if environ is None else environ)


@dataclass(frozen=True)
class Value:
    setting: Setting
    value: Any
    source: str

    def shown(self, *, reveal: bool = False) -> Any:
        """The value as it may be printed: masked (see :func:`masked`) unless revealed."""
        if reveal or self.value is None:
            return self.value
        return masked(self.setting, self.value)


class Config:
    """Settings resolved from environment, file, built-in defaults and hard defaults."""

    def __init__(self, file_values: dict[str, Any], environ: Mapping[str, str], file: Path,
                 builtin_values: Mapping[str, Any] | None = None,
                 project: tuple[Path, Mapping[str, Any]] | None = None, *,
                 policy: Policy | None = None):
        self._file_values = file_values
        self.policy = policy or Policy()
        self._builtin_values = builtin_values or {}
        self._environ = environ
        self.file = file
        self.project_file: Path | None = project[0] if project else None
        self._project_values: Mapping[str, Any] = project[1] if project else {}

    def value(self, key: str) -> Value:
        setting = setting_for(key)
        if key in self.policy.settings:
            return Value(setting, self.policy.settings[key].value, SOURCE_POLICY)
        raw_env = self._environ.get(setting.env)
        if raw_env not in (None, ""):
            return Value(setting, coerce(setting, raw_env, origin=setting.env), SOURCE_ENV)
        if key in self._project_values:
            return Value(setting, self._project_values[key], SOURCE_PROJECT)
        if key in self._file_values:
            return Value(setting, self._file_values[key], SOURCE_FILE)
        if key in self._builtin_values:
            return Value(setting, self._builtin_values[key], SOURCE_BUILTIN)
        return Value(setting, setting.default, SOURCE_DEFAULT)

    def get(self, key: str) -> Any:
        return self.value(key).value

    def origin(self, value: Value) -> str | None:
        """Where ``value`` came from, as messages name it: the file, the variable,
        ``built-in`` (:func:`bad_value` names the embedded file), or ``None`` for a default."""
        return {SOURCE_FILE: str(self.file), SOURCE_ENV: value.setting.env,
                SOURCE_BUILTIN: SOURCE_BUILTIN,
                SOURCE_PROJECT: str(self.project_file),
                SOURCE_POLICY: str(self._policy_file(value))}.get(value.source)

    def _policy_file(self, value: Value) -> Path | None:
        rule = self.policy.settings.get(value.setting.key)
        return rule.file if rule else None

    def values(self) -> list[Value]:
        return [self.value(s.key) for s in SETTINGS]


def load_config(environ: Mapping[str, str] | None = None,
                project_file: Path | None = None) -> Config:
    """The settings; with ``project_file`` (a project's :data:`PROJECT_CONFIG`, checked by
    its caller), that project's own values above the user's file."""
    env = os.environ if environ is None else environ
    file = paths(env).config_file
    project = None
    if project_file is not None:
        project = (project_file, read_config_file(project_file, project=True))
    return Config(read_config_file(file), env, file, builtin_defaults(), project,
                  policy=load_policy(env))
