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
"""The hidden first argument that makes ``gz-ia`` run as a holder (see cli.main).

This module sits beside ``proc`` and imports nothing of gz-ia: ``update`` (which must work
when the rest of an install is broken) and the supervisor both use it."""


UPDATE_CHECK_ARG = "__update-check__"
"""The hidden first argument of the background update check (:mod:`gzia.update.background`)."""


HOOK_ARG = "__hook__"
"""The hidden first argument of an agent's state hook (:mod:`gzia.sessions.agent_hooks`)."""

ORCHY_ARG = "__orchy__"
"""The hidden first argument of a run's warm MCP server (:mod:`gzia.orchy.listen`)."""

RELAY_ARG = "__relay__"
"""The hidden first argument of the MCP relay an agent starts (:mod:`gzia.supervisor.mcp_relay`)."""


def running_pyz(argv0: str | None = None) -> Path | None:
    """The zipapp this process runs from (``sys.argv[0]``, links resolved), or None."""
    candidate = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    if not candidate:
        return None
    import zipfile  # only when asked: not on the path of every command

    try:
        path = Path(candidate).resolve()
        return path if path.is_file() and zipfile.is_zipfile(path) else None
    except OSError:
        return None


def gzia_argv(*args: str) -> list[str]:
    """The argv that runs this same gz-ia again with ``args``: the same interpreter, and
    the same zipapp or ``-P -m gzia`` (never a ``gzia`` directory of the current one)."""
    pyz = running_pyz()
    if pyz is not None:
        return [sys.executable, str(pyz), *args]
    return [sys.executable, "-P", "-m", "gzia", *args]


def replace_self(environ: Mapping[str, str]) -> NoReturn:
    """Run this process's own command line again in its place, with ``environ``.

    ``sys.orig_argv`` is the interpreter's command line as it was given (options, the
    zipapp, script or ``-m gzia``, and the arguments), so the same gz-ia runs the same
    command; ``os.execve`` keeps the pid, process group, session and terminal.
    """
    os.execve(sys.executable, sys.orig_argv, dict(environ))  # noqa: S606 - an argv, no shell
