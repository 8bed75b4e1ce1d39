"""What gz-ia checks before it imports anything of its own: the Python that runs it.

gz-ia needs Python 3.11 or newer; an older one would fail at the first import with a
traceback. This module is the first one ``python -m gzia`` and the zipapp's entry import,
so it stays readable and runnable by every Python 3.8+: the standard library only, no
syntax newer than 3.8, no message catalogue (gzia.i18n may not import on such a Python).
Its one message carries its own Spanish. The language rule lives here too, and gzia.i18n
uses it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

OLDEST_PYTHON = (3, 11)
LANGUAGE_VARIABLES = ("GZ_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
TOO_OLD = {
    "en": "Error: gz-ia needs Python {needed} or newer, and {path} is Python {found}",
    "es": "Error: gz-ia necesita Python {needed} o posterior, y {path} es Python {found}",
}


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """``es`` when the first of ``LANGUAGE_VARIABLES`` that is set starts with ``es``."""
    env = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = env.get(name, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def python_too_old() -> str | None:
    """The one line that refuses this interpreter, or ``None`` when it is new enough."""
    if sys.version_info >= OLDEST_PYTHON:
        return None
    return TOO_OLD[detect_language()].format(
        needed=".".join(map(str, OLDEST_PYTHON)),
        path=sys.executable or "python",
        found=".".join(map(str, sys.version_info[:3])),
    )
