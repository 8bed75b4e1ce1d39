"""What every screen of the TUI shares: translated key labels, the app's context."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType
from textual.screen import Screen

from gzia.tui.context import TuiContext
from gzia.tui.keys import key, translate_bindings


class GzScreen(Screen[None]):
    """A screen whose bindings' labels are message keys (see :mod:`gzia.tui.keys`)."""

    BINDINGS: ClassVar[list[BindingType]] = [key("escape", "back", "tui.key_back")]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    @property
    def context(self) -> TuiContext:
        found = getattr(self.app, "tui_context", None)
        if not isinstance(found, TuiContext):
            raise TypeError("a gz-ia screen runs inside GzApp")
        return found

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:  # the default screen, then the home screen
            self.app.pop_screen()
