"""The TOML files settings come from: the user's configuration file, a project's
(``.harness/config.toml``), the built-in defaults of a build, and the administrator's
policy files (:mod:`gzia.policy`); how each is read and checked, and how ``config set``
writes the user's file. :mod:`gzia.config` resolves the values they hold.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gzia import setting_values
from gzia.atomic import write_atomic
from gzia.contract import InvalidInputError, IOFailure
from gzia.i18n import N_
from gzia.policy import Policy, merge, policy_files
from gzia.setting_values import SOURCE_BUILTIN, coerce, stored_setting
from gzia.settings import PROJECT_KEYS, SETTINGS_BY_KEY


def load_policy(environ: Mapping[str, str] | None = None) -> Policy:
    """The administrator's policy (:mod:`gzia.policy`), its files read lowest first."""
    policy = Policy()
    for file in policy_files(os.environ if environ is None else environ):
        merge(policy, _policy_document(file), file, _policy_setting)
    return policy


def read_policy_file(file: Path) -> Policy:
    """The rules of one policy file, checked (build/check_defaults.py)."""
    policy = Policy()
    merge(policy, _policy_document(file), file, _policy_setting)
    return policy


def _policy_document(file: Path) -> dict[str, Any]:
    """A policy file's TOML. One that is there but cannot be read stops the command: its
    rules are never skipped, and only the administrator can fix it."""
    try:
        return read_toml(file)
    except IOFailure as exc:
        raise IOFailure(N_("cannot read the policy file {file}: {detail}"), file=str(file),
                        detail=exc.params.get("detail", ""),
                        hint_key=N_("a policy file must be readable by every user of gz-ia "
                                    "(mode 644): ask the administrator of this machine"),
                        details={"file": str(file)}) from exc


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
    return read_config_file(setting_values.BUILTIN_DEFAULTS, origin=SOURCE_BUILTIN)


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
