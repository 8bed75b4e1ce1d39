"""What gz-ia checks before it imports anything of its own: the Python that runs it.

gz-ia needs Python 3.11 or newer; an older one would fail at the first import with a
traceback. This module is the first one ``python -m gzia`` and the zipapp's entry import,
so it stays readable and runnable by every Python from 2.7 on, and each of them gets the
one line: the standard library only, no message catalogue (gzia.i18n may not import on
such a Python), and only syntax both 2.7 and 3.5 read. No annotations (type comments
instead), no f-strings, no ``from __future__`` import (``annotations`` is 3.7+), no walrus,
no keyword-only or positional-only parameters, ASCII only. The same holds for what runs
before it (gzia/__init__.py, gzia/_version.py, gzia/__main__.py, build/pyz_entry.py):
tests/cli/test_old_python.py checks their syntax and runs 2.7 and 3.6 to 3.10 where they
are installed. Older than 2.7 is not provided for: 2.6 cannot run ``-m`` on a package,
and says so in its own words.

Its one message carries its own Spanish. The language rule lives here too, and gzia.i18n
uses it.
"""

import os
import sys

TYPE_CHECKING = False  # typing is 3.5+; the type checker reads the block, no Python runs it
if TYPE_CHECKING:
    from collections.abc import Mapping

    Environment = Mapping[str, str]  # what the type comments below name

OLDEST_PYTHON = (3, 11)
LANGUAGE_VARIABLES = ("GZ_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
TOO_OLD = {
    "en": "Error: gz-ia needs Python {needed} or newer, and {path} is Python {found}",
    "es": "Error: gz-ia necesita Python {needed} o posterior, y {path} es Python {found}",
}


def detect_language(environ=None):  # type: (Environment | None) -> str
    """``es`` when the first of ``LANGUAGE_VARIABLES`` that is set starts with ``es``."""
    env = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = env.get(name, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def python_too_old():  # type: () -> str | None
    """The one line that refuses this interpreter, or ``None`` when it is new enough."""
    if sys.version_info >= OLDEST_PYTHON:
        return None
    return TOO_OLD[detect_language()].format(
        needed=".".join(map(str, OLDEST_PYTHON)),
        path=sys.executable or "python",
        found=".".join(map(str, sys.version_info[:3])),
    )
