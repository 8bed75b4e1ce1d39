"""Messages in English and Spanish.

A message key is ``<area>.<name>``; the catalogue of an area is the module
``gzia.i18n.<area>`` with two dicts, ``EN`` and ``ES``, holding ``str.format`` templates.
Areas load on first use, so a command pays only for the messages it shows.
The language comes from ``GZ_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (first set wins):
Spanish when it starts with ``es``, English otherwise.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Any

LANGUAGE_VARIABLES = ("GZ_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def detect_language(environ: dict[str, str] | os._Environ[str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = env.get(name, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


_language: str | None = None


def language() -> str:
    global _language  # noqa: PLW0603 - the process-wide language, decided once
    if _language is None:
        _language = detect_language()
    return _language


def set_language(lang: str | None) -> None:
    """Force a language (tests, or ``None`` to detect again from the environment)."""
    global _language  # noqa: PLW0603
    _language = lang


@cache
def catalogue(area: str, lang: str) -> dict[str, str]:
    module = importlib.import_module(f"gzia.i18n.{area}")
    table: dict[str, str] = getattr(module, lang.upper())
    return table


def t(key: str, /, **params: Any) -> str:
    """Render message ``key`` in the current language.

    Counted messages: when ``count`` is 1 and the catalogue has ``<name>_one``, that form
    is used (``1 plugin loaded``); ``<name>`` holds the plural (``0 plugins``, ``2 ...``).
    """
    area, _, name = key.partition(".")
    lang = language()
    table = catalogue(area, lang)
    if params.get("count") == 1 and f"{name}_one" in table:
        name = f"{name}_one"
    template = table.get(name)
    if template is None:
        template = catalogue(area, "en")[name]
    return template.format(**params) if params else template
