"""A setting's value: found by key, converted from text or TOML to the setting's type and
checked, masked as output shows it; the error a bad one gets names where it came from.
:mod:`gzia.config` and :mod:`gzia.config_files` read values through this module.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from gzia.contract import InvalidInputError
from gzia.credentials import MASK, mask_credentials
from gzia.i18n import N_, gettext
from gzia.settings import SETTINGS_BY_KEY, Setting

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

SOURCE_BUILTIN = "built-in"
# Embedded by build/shiv.sh from GZ_BUILD_DEFAULTS; a development install has none.
BUILTIN_DEFAULTS = Path(__file__).with_name("defaults.toml")


def masked(setting: Setting, value: Any) -> Any:
    """``value`` as it may be printed: a secret setting's value is ``****`` whatever its type;
    in text, a URL's user info and query parameters named like credentials are masked."""
    if setting.secret:
        return MASK
    if isinstance(value, list):
        return [mask_credentials(part) if isinstance(part, str) else part for part in value]
    return mask_credentials(value) if isinstance(value, str) else value


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


def stored_setting(key: str) -> Setting:
    """The setting ``key`` names, which a file may hold (not one read from the environment
    alone)."""
    setting = setting_for(key)
    if setting.env_only:
        raise InvalidInputError(
            N_("setting '{key}' is read from the environment only: set {variable}"),
            key=key, variable=setting.env, details={"key": key, "variable": setting.env})
    return setting
