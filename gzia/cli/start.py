"""``gz-ia start``: the terminal UI of the project containing ``-d`` (default: cwd).

Bare ``gz-ia`` runs it too when stdin and stdout are terminals (gzia/cli/runner.py).
"""

from __future__ import annotations

import click

from gzia.cli.command import command


@command("start", help="Open the terminal UI: watch and steer the project's sessions.")
@click.option("-d", "--dir", "directory",
              help="Project directory (default: the current directory).")
def app(directory: str | None) -> None:
    from gzia.cli.terminal_ui import open_tui

    open_tui(directory)
