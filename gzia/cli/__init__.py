"""The command line. :func:`main` is the only place that turns outcomes into exit codes.

``gz-ia --version`` and ``gz-ia version`` are answered before anything else is imported:
they must start as fast as Python itself.
"""

from __future__ import annotations

import os
import sys


def version_line() -> str:
    from gzia._version import COMMIT, DATE, __version__

    return f"gz-ia v{__version__} (commit: {COMMIT}, date: {DATE})"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if args in (["--version"], ["version"]):
            sys.stdout.write(version_line() + "\n")
            sys.stdout.flush()
            return 0
        from gzia.cli.runner import run

        return run(args)
    except BrokenPipeError:
        return reader_went_away()


def reader_went_away() -> int:
    """The reader closed our stdout (``gz-ia ... | head -1``): stop quietly, exit 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0
