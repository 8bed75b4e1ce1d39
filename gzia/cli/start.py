"""``gz-ia start``: the terminal UI of the project containing ``-d`` (default: cwd).

Bare ``gz-ia`` runs it too when stdin and stdout are terminals (gzia/cli/runner.py).
Textual is imported only here, after the project is found: a wrong directory gives the
same error as ``gz-ia session list``, before the screen is taken over.
"""

from __future__ import annotations

import sys

import typer

from gzia.cli.session.common import Dir
from gzia.contract import InvalidInputError

app = typer.Typer(add_completion=False)


def on_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@app.command(help="Open the terminal UI: watch and steer the project's sessions.")
def start(directory: Dir = None) -> None:
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore

    store = SessionStore(find_project(directory))
    if not on_a_terminal():
        raise InvalidInputError("tui.not_a_terminal", hint_key="tui.not_a_terminal_hint")
    from gzia.tui.app import run_app

    run_app(store)
