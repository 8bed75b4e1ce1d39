"""How to start this same gz-ia again: as a new process (the holder of a background run),
or in place of this one (:func:`replace_self`).

* From the zipapp (``gz-ia.pyz``, or ``python gz-ia.pyz``): ``sys.argv[0]`` is the
  archive; the same interpreter runs the same archive, so the holder is exactly the
  version the user ran, with the same bundled dependencies.
* From an install (a console script, ``python -m gzia``, or gz-ia called in-process):
  the same interpreter runs ``-P -m gzia``. ``-P`` keeps the current directory off
  ``sys.path``, so a directory called ``gzia`` in the user's project is never imported.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

HOLDER_ARG = "__holder__"
"""The hidden first argument that makes ``gz-ia`` run as a holder (see cli.main)."""


def running_pyz() -> str | None:
    """The zipapp gz-ia runs from, or None."""
    program = sys.argv[0] if sys.argv else ""
    if not program or not Path(program).is_file():
        return None
    import zipfile

    try:
        return os.path.realpath(program) if zipfile.is_zipfile(program) else None
    except OSError:
        return None


def gzia_argv(*args: str) -> list[str]:
    pyz = running_pyz()
    if pyz is not None:
        return [sys.executable, pyz, *args]
    return [sys.executable, "-P", "-m", "gzia", *args]


def replace_self(environ: Mapping[str, str]) -> NoReturn:
    """Run this process's own command line again in its place, with ``environ``.

    ``sys.orig_argv`` is the interpreter's command line as it was given (options, the
    zipapp, script or ``-m gzia``, and the arguments), so the same gz-ia runs the same
    command; ``os.execve`` keeps the pid, process group, session and terminal.
    """
    os.execve(sys.executable, sys.orig_argv, dict(environ))  # noqa: S606 - an argv, no shell
