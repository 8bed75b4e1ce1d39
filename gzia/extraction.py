"""Where the zipapp's bundled dependencies are extracted, which extractions are in use, and
which are stale.

gz-ia.pyz extracts its site-packages once per build into ``<root>/gz-ia_<build id>``,
whatever the file is called (shiv's layout names it after the file: a SHIV_* override
still does). The root is ``SHIV_ROOT`` when set (``$VAR`` expanded, as shiv does), else
``shiv`` in gz-ia's cache directory (``GZ_CACHE_DIR``, else the platform's: ``$XDG_CACHE_HOME``
or ``~/.cache``, ``~/Library/Caches`` on macOS, each ``/gz-ia``), the same directory
``gz-ia config path`` prints as ``cache_dir``. gzia.config finds it with platformdirs; the
zipapp's entry cannot import platformdirs before the extraction, so this module repeats
the rule and the tests hold the two equal.

Every gz-ia started from the archive holds a shared lock on ``<extraction>/.in-use`` for as
long as it runs (a background session's holder too): gzia.stale_builds removes only the
extractions nobody holds. build/pyz_entry.py imports it as ``gzia_extraction`` on every
start (compiled each time: it stays small), once the Python is checked and before the
dependencies are there: the standard library only.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Mapping

IN_USE = ".in-use"
APP_NAME = "gz-ia"
HELD, GONE, UNMARKED = "held", "gone", "unmarked"


def platform_cache_dir(environ: Mapping[str, str]) -> str:
    """gz-ia's cache directory, as gzia.config.Paths.cache_dir finds it."""
    override = environ.get("GZ_CACHE_DIR")
    if override:
        return os.path.expanduser(override)
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Caches"), APP_NAME)
    base = environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")
    return os.path.join(base, APP_NAME)


def extraction_root(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    root = env.get("SHIV_ROOT", "")
    if root.startswith("$"):
        root = env.get(root[1:], root[1:])
    return os.path.expanduser(root) if root else os.path.join(platform_cache_dir(env), "shiv")


def hold(extraction: str) -> str:
    """Mark ``extraction`` in use for the life of this process (the descriptor stays open,
    and is not inherited): ``HELD``; ``GONE`` when it is not there (any more: a clean-up
    removed it meanwhile); ``UNMARKED`` when it cannot be marked (a read-only cache)."""
    mark = os.path.join(extraction, IN_USE)
    try:
        fd = os.open(mark, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except FileNotFoundError:
        return GONE
    except OSError:
        return UNMARKED
    fcntl.flock(fd, fcntl.LOCK_SH)  # waits while a clean-up holds it
    try:
        still_there = os.path.samestat(os.fstat(fd), os.stat(mark))
    except OSError:
        still_there = False
    if not still_there:
        os.close(fd)
        return GONE
    os.utime(fd)  # when this build was last started: the clean-up keeps the latest
    return HELD
