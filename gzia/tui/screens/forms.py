"""What the screens that act share: errors shown as the CLI shows them, and
a yes/no question before anything changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from gzia.tui.services import problem_of
from gzia.views.problems import error_lines


def problem_text(exc: BaseException) -> str:
    """The CLI's ``Error: <message>`` line, and its hint line when there is one."""
    return "\n".join(error_lines(problem_of(exc)))


def ask(screen: Screen[Any], question: str, on_yes: Callable[[], None],
        details: list[str] | None = None) -> None:
    """Ask ``question`` (the confirm dialog, ``details`` under it); ``on_yes`` runs only on
    a yes."""
    from gzia.tui.screens.confirm import ConfirmScreen

    def answered(yes: bool | None) -> None:
        if yes:
            on_yes()

    screen.app.push_screen(ConfirmScreen(question, details), answered)
