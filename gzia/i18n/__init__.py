"""Messages in the user's language, with gettext.

Code writes each message in English where it is shown, and that text is the message's
id in the catalogue: ``gettext("unknown command: {command}", command=name)``;
``ngettext("1 plugin loaded", "{count} plugins loaded", n)`` for a count;
``pgettext(context, text)`` where one English text has two translations. A message chosen
at run time is marked where it is written with ``N_(text)`` (``NC_(context, text)``;
``NN_(singular, plural)`` for a count) and translated where it is shown. Parameters fill
``str.format`` fields; a message shown without parameters is shown as written.

Translations live in ``gzia/locale/<lang>/LC_MESSAGES/gzia.po``, compiled to ``gzia.mo``
by ``hatch_build.py`` (every install and build). click's own texts ("Usage:", "Options")
are in the same catalogue (:func:`bind_click`). English needs no catalogue.
The language comes from ``GZ_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (first set
wins): Spanish when it starts with ``es``, English otherwise.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gettext import NullTranslations

LANGUAGE_VARIABLES = ("GZ_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
DOMAIN = "gzia"
CONTEXT = "\x04"  # joins a context and its text, as a .mo file does
PLURAL = "\x00"  # joins a counted message's singular and plural, as a .mo file does


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
def translations(lang: str) -> NullTranslations:
    """The compiled catalogue of ``lang``, read from the package (a pyz included)."""
    from gettext import GNUTranslations, NullTranslations

    if lang == "en":
        return NullTranslations()
    from importlib.resources import files  # only for a catalogue to read

    compiled = files("gzia") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with compiled.open("rb") as stream:
        return GNUTranslations(stream)


def gettext(message: str, /, **params: Any) -> str:
    """``message`` (English, ``NC_``'s context and text, or ``NN_``'s two forms, counted
    by the ``count`` parameter) in the current language."""
    if PLURAL in message:
        singular, _, plural = message.partition(PLURAL)
        return ngettext(singular, plural, params.pop("count"), **params)
    context, _, english = message.rpartition(CONTEXT)
    catalogue = translations(language())
    text = catalogue.pgettext(context, english) if context else catalogue.gettext(english)
    return text.format(**params) if params else text


def pgettext(context: str, message: str, /, **params: Any) -> str:
    return gettext(NC_(context, message), **params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """The form for ``count`` of a counted message; ``{count}`` is filled in."""
    return translations(language()).ngettext(singular, plural, count).format(
        count=count, **params)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    return message


def NC_(context: str, message: str) -> str:  # noqa: N802
    return f"{context}{CONTEXT}{message}"


def NN_(singular: str, plural: str) -> str:  # noqa: N802
    """A counted message, translated later by :func:`gettext` with a ``count``."""
    return f"{singular}{PLURAL}{plural}"


def bind_click() -> None:
    """click's and typer's own texts ("Usage:", "[default: ...]") from gz-ia's catalogue.

    They call ``gettext.gettext``, bound at their import to a module global ``_``
    (``ngettext`` likewise). That name is pointed at this catalogue in the current
    language, so no global gettext domain or ``LANGUAGE`` is set (an agent's environment
    stays the user's). Idempotent.
    """
    import gettext as stdlib
    import sys

    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] not in ("click", "typer") or module is None:
            continue
        if getattr(module, "_", None) is stdlib.gettext:
            module._ = _frame_gettext  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is stdlib.ngettext:
            module.ngettext = _frame_ngettext  # type: ignore[attr-defined]


def _frame_gettext(message: str) -> str:
    return translations(language()).gettext(message)


def _frame_ngettext(singular: str, plural: str, count: int) -> str:
    return translations(language()).ngettext(singular, plural, count)
