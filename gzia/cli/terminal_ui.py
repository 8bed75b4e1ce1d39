"""Opening the terminal UI: ``gz-ia start`` and bare ``gz-ia`` on a terminal
(:mod:`gzia.cli.start`). Textual is imported only once the project is found and the
terminal checked: a wrong directory gives ``gz-ia session list``'s error, before the
screen is taken over.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from gzia.contract import InvalidInputError
from gzia.i18n import N_

if TYPE_CHECKING:
    from gzia.sessions.store import SessionStore
    from gzia.tui.context import TuiContext


def on_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def open_tui(directory: str | None) -> None:
    """Run the TUI of the project containing ``directory`` (default: cwd) until it quits."""
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore

    store = SessionStore(find_project(directory))
    if not on_a_terminal():
        raise InvalidInputError(N_("gz-ia start needs a terminal on stdin and stdout"),
                                hint_key=N_("run it in a terminal; scripts use 'gz-ia session list "
                                            "--json'"))
    from gzia.tui.app import run_app

    run_app(tui_context(store))


def tui_context(store: SessionStore) -> TuiContext:
    """The TUI's context for ``store``: with gz-ia's read-only tools, which a supervised
    agent started or resumed from the TUI calls without asking, as under ``gz-ia chat``."""
    from gzia.orchy.preapproved import read_only_tools
    from gzia.tui.context import TuiContext

    return TuiContext(store, preapproved_tools=read_only_tools())
