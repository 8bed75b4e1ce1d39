"""Configuration: where gz-ia keeps its files, and every setting with its source.

Each setting is declared once in :mod:`gzia.settings` with its type, default and
environment variable. Above everything, the administrator's policy (:mod:`gzia.policy`).
A value comes from the environment (``GZ_*``) if set, else from the TOML
file, else from the built-in defaults (``gzia/defaults.toml``, embedded by build/shiv.sh
from an organisation's defaults file), else the hard default; :class:`Value` remembers
which. Paths come from platformdirs and can be moved with ``GZ_CONFIG_DIR``,
``GZ_DATA_DIR``, ``GZ_CACHE_DIR``, ``GZ_STATE_DIR`` and ``GZ_CONFIG_FILE``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.contract import InvalidInputError, IOFailure
from gzia.credentials import MASK, WITHHELD_NAMES_VARIABLE, mask_credentials
from gzia.i18n import N_, gettext
from gzia.policy import POLICY_FILE_VARIABLE, Policy, merge, policy_files
from gzia.policy import SOURCE_POLICY as SOURCE_POLICY  # noqa: PLC0414 - re-exported
from gzia.settings import DEBUG, PROJECT_KEYS, SETTINGS, SETTINGS_BY_KEY, Setting

_MSG_EXPECTED: dict[object, str] = {
    "bool": N_("true or false"),
    "float": N_("a number"),
    "int": N_("an integer"),
    "list": N_("a program and its arguments"),
    "str": N_("text"),
}


_MSG_EXPECTED_MIN: dict[object, str] = {
    "int": N_("an integer of at least {minimum}"),
}


_MSG_EXPECTED_POSITIVE: dict[object, str] = {
    "float": N_("a number greater than 0"),
}

APP_NAME = "gz-ia"

PATH_VARIABLES = ("GZ_CONFIG_DIR", "GZ_DATA_DIR", "GZ_CACHE_DIR", "GZ_STATE_DIR",
                  "GZ_CONFIG_FILE", "GZ_PLUGIN_PATH", POLICY_FILE_VARIABLE)
"""The variables that move gz-ia's files (:class:`Paths`); ``config path`` shows the file."""
INTERNAL_VARIABLES = (WITHHELD_NAMES_VARIABLE, "GZ_SESSION_ID", "GZ_GUARD_*")
"""Set by gz-ia itself, for its own processes and its agents' git guardrails: no settings
(docs/configuration.md, "Internal variables")."""

SOURCE_DEFAULT = "default"
SOURCE_BUILTIN = "built-in"
SOURCE_FILE = "file"
SOURCE_ENV = "env"
SOURCE_PROJECT = "project"
PROJECT_CONFIG = Path(".harness") / "config.toml"
"""A project's own settings (those marked ``project``), under its root; never committed."""
# Embedded by build/shiv.sh from GZ_BUILD_DEFAULTS; a development install has none.
BUILTIN_DEFAULTS = Path(__file__).with_name("defaults.toml")


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


def masked(setting: Setting, value: Any) -> Any:
    """``value`` as it may be printed: a secret setting's value is ``****`` whatever its type;
    in text, a URL's user info and query parameters named like credentials are masked."""
    if setting.secret:
        return MASK
    if isinstance(value, list):
        return [mask_credentials(part) if isinstance(part, str) else part for part in value]
    return mask_credentials(value) if isinstance(value, str) else value


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


def setting_for(key: str) -> Setting:
    try:
        return SETTINGS_BY_KEY[key]
    except KeyError:
        raise InvalidInputError(
            N_("unknown setting '{key}' (valid: {valid})"), key=key,
            valid=", ".join(SETTINGS_BY_KEY),
            details={"key": key, "valid": list(SETTINGS_BY_KEY)},
        ) from None


def coerce(setting: Setting, raw: Any, *, origin: str | None) -> Any:
    """Turn ``raw`` (a string from env/CLI, or a TOML value) into the setting's type.

    ``origin`` names where the value came from (a file, an environment variable);
    ``None`` is the command line.
    """
    value = _typed(setting, raw)
    if value is None or (setting.choices and value not in setting.choices) or (
        setting.minimum is not None and value < setting.minimum
    ) or (setting.positive and value <= 0):
        raise bad_value(setting, raw, origin=origin, expected=_expected(setting))
    return value


def bad_value(setting: Setting, raw: Any, *, origin: str | None,
              expected: str) -> InvalidInputError:
    """The error for a value ``setting`` cannot take, naming the key and where the value
    came from (a file, a variable, ``built-in``; ``None``: the command line); the value is
    masked as output is."""
    details: dict[str, Any] = {"key": setting.key, "origin": origin}
    named = origin
    if origin == SOURCE_BUILTIN:
        details["file"] = str(BUILTIN_DEFAULTS)
        named = gettext("the built-in defaults ({file})", file=BUILTIN_DEFAULTS)
    return InvalidInputError(
        (N_("setting '{key}' from {origin} must be {expected}, got '{value}'")
         if origin else N_("setting '{key}' must be {expected}, got '{value}'")),
        key=setting.key,
        origin=named, expected=expected, value=str(masked(setting, str(raw))),
        details=details,
    )


BOOLEAN_WORDS = {"true": True, "1": True, "yes": True, "on": True,
                 "false": False, "0": False, "no": False, "off": False}


def _typed(setting: Setting, raw: Any) -> Any:
    """``raw`` as the setting's type, or ``None``; a number must be finite."""
    value = _converted(setting, raw)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _converted(setting: Setting, raw: Any) -> Any:
    if setting.type in (bool, list):
        return _argv(raw) if setting.type is list else _boolean(raw)
    if isinstance(raw, setting.type) and not isinstance(raw, bool):
        return raw
    if setting.type is float and isinstance(raw, int) and not isinstance(raw, bool):
        return float(raw)
    if isinstance(raw, str):
        try:
            return setting.type(raw.strip())
        except ValueError:
            return None
    return None


def _boolean(raw: Any) -> bool | None:
    return raw if isinstance(raw, bool) else BOOLEAN_WORDS.get(str(raw).strip().lower())


def _argv(raw: Any) -> list[str] | None:
    """A program and its arguments: a TOML array of strings, or text split into words as
    a POSIX shell would (quotes kept together; nothing expanded, nothing run)."""
    if isinstance(raw, str):
        import shlex

        try:
            raw = shlex.split(raw)
        except ValueError:  # an unclosed quote
            return None
    if not isinstance(raw, list) or not raw or not all(isinstance(w, str) for w in raw) \
            or not raw[0]:
        return None
    return raw


def _expected(setting: Setting) -> str:
    if setting.choices:
        return gettext("one of {choices}", choices=", ".join(setting.choices))
    if setting.minimum is not None:
        return gettext(_MSG_EXPECTED_MIN[setting.type.__name__], minimum=setting.minimum)
    if setting.positive:
        return gettext(_MSG_EXPECTED_POSITIVE[setting.type.__name__])
    return gettext(_MSG_EXPECTED[setting.type.__name__])


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


def load_policy(environ: Mapping[str, str] | None = None) -> Policy:
    """The administrator's policy (:mod:`gzia.policy`), its files read lowest first."""
    policy = Policy()
    for file in policy_files(os.environ if environ is None else environ):
        merge(policy, read_toml(file), file, _policy_setting)
    return policy


def read_policy_file(file: Path) -> Policy:
    """The rules of one policy file, checked (build/check_policy.py)."""
    policy = Policy()
    merge(policy, read_toml(file), file, _policy_setting)
    return policy


def _policy_setting(key: str, raw: Any, file: Path) -> Any:
    if key not in SETTINGS_BY_KEY:
        raise InvalidInputError(N_("unknown setting '{key}' in {file}"), key=key, file=str(file),
                                details={"file": str(file), "key": key})
    setting = stored_setting(key)
    if setting.secret:
        raise InvalidInputError(N_("setting '{key}' in {file} is a secret, which a policy "
                                   "file (readable by every user) cannot hold"),
                                key=key, file=str(file), details={"key": key, "file": str(file)})
    return coerce(setting, raw, origin=str(file))


def builtin_defaults() -> dict[str, Any]:
    """The defaults embedded in this build (none in a development install)."""
    return read_config_file(BUILTIN_DEFAULTS, origin=SOURCE_BUILTIN)


def read_config_file(file: Path, *, origin: str | None = None,
                     project: bool = False) -> dict[str, Any]:
    """The settings in ``file``; a bad value names ``origin`` (by default the file).
    ``project``: a project's file, which may hold only the settings marked ``project``."""
    values: dict[str, Any] = {}
    for key, raw in read_toml(file).items():
        setting = SETTINGS_BY_KEY.get(key)
        if setting is None:
            raise InvalidInputError(
                N_("unknown setting '{key}' in {file}"), key=key, file=str(file),
                details={"file": str(file), "key": key},
            )
        if project and not setting.project:
            raise InvalidInputError(
                N_("setting '{key}' in {file} cannot be set for one project (valid: {valid})"),
                key=key, file=str(file), valid=", ".join(PROJECT_KEYS),
                details={"file": str(file), "key": key, "valid": list(PROJECT_KEYS)},
            )
        values[key] = coerce(stored_setting(key), raw, origin=origin or str(file))
    return values


def read_toml(file: Path) -> dict[str, Any]:
    """The TOML document in ``file`` (empty when there is none): ``IO`` when it cannot be
    read, ``INVALID_INPUT`` naming its line when it is not TOML."""
    import tomllib

    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise IOFailure(N_("cannot read the configuration file {file}: {detail}"), file=str(file),
                        detail=detail,
                        details={"file": str(file)}) from exc
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInputError(
            N_("configuration file {file} is not valid TOML: {detail}"), file=str(file),
            detail=str(exc),
            details={"file": str(file), "line": _error_line(exc, text)},
        ) from None
    return document


def stored_setting(key: str) -> Setting:
    """The setting ``key`` names, which a file may hold (not one read from the environment
    alone)."""
    setting = setting_for(key)
    if setting.env_only:
        raise InvalidInputError(
            N_("setting '{key}' is read from the environment only: set {variable}"),
            key=key, variable=setting.env, details={"key": key, "variable": setting.env})
    return setting


def _error_line(exc: Exception, text: str) -> int | None:
    import re

    match = re.search(r"at line (\d+)", str(exc))
    if match:
        return int(match.group(1))
    if "end of document" in str(exc):
        return max(1, len(text.splitlines()))
    return None


def write_config_value(file: Path, key: str, raw: str | None) -> None:
    """Set (or with ``raw=None`` remove) one key in the TOML file, atomically."""
    setting = stored_setting(key)
    values = read_config_file(file)
    if raw is None:
        values.pop(key, None)
    else:
        values[key] = coerce(setting, raw, origin=None)
    text = "".join(f"{k} = {_toml_literal(v)}\n" for k, v in sorted(values.items()))
    private = any(SETTINGS_BY_KEY[k].secret for k in values)
    # A symlinked file (kept in a dotfiles repository) stays a link: write its target.
    target = file.resolve() if file.is_symlink() else file
    write_atomic(target, text.encode("utf-8"), mode=0o600 if private else 0o644)


def _toml_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    import json

    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(str(v), ensure_ascii=False) for v in value) + "]"

    return json.dumps(str(value), ensure_ascii=False)
