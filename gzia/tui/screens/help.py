"""``?``: the keys of the screen it was opened from, each with what it does, those the
footer has no room for included (the same list the command palette offers by name)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from gzia.i18n import N_, gettext
from gzia.tui.keys import key, translate_bindings
from gzia.tui.palette import screen_actions
from gzia.tui.screens.confirm import DIALOG_CSS


class HelpScreen(ModalScreen[None]):
    """Esc, Enter, ``?`` or ``q`` closes it."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        key("escape,enter,question_mark,q", "close", N_("Close")),
    ]

    def __init__(self, below: Screen[Any]) -> None:
        super().__init__()
        translate_bindings(self)
        self.lines = key_lines(below)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(gettext("Keys"), classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static("\n".join(self.lines), markup=False)
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


def key_lines(screen: Screen[Any]) -> list[str]:
    """``key   what it does``, one line each, the keys in a column."""
    actions = [(name, title) for title, name, _node, _action in screen_actions(screen)]
    actions += [("^p", gettext("Commands: every action by name")),
                ("?", gettext("These keys"))]
    width = max(cell_len(name) for name, _ in actions)
    return [f"{name}{' ' * (width - cell_len(name))}   {title}" for name, title in actions]
