"""``gz-ia version``: version, commit and build date."""

from __future__ import annotations

import platform

from gzia.cli import output
from gzia.cli.command import command


def report_version() -> None:
    from gzia._version import COMMIT, DATE, __version__
    from gzia.cli import version_line

    data = {"version": __version__, "commit": COMMIT, "date": DATE,
            "python": platform.python_version()}
    output.emit(data, human=lambda: output.line(version_line()))


@command("version", help="Print the version, commit and build date.")
def app() -> None:
    report_version()
