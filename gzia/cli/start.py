"""``gz-ia start``: the terminal UI of the project containing ``-d`` (default: cwd).

Bare ``gz-ia`` runs it too when stdin and stdout are terminals (gzia/cli/runner.py).
"""

from __future__ import annotations

import typer

from gzia.cli.session.common import Dir

app = typer.Typer(add_completion=False)


@app.command(help="Open the terminal UI: watch and steer the project's sessions.")
def start(directory: Dir = None) -> None:
    from gzia.cli.terminal_ui import open_tui

    open_tui(directory)
