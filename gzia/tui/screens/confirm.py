"""A yes/no question before anything changes: ``y`` answers yes, ``n`` or Esc no."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from gzia.tui.keys import key, translate_bindings


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        key("y", "answer(True)", "tui_forms.key_yes"),
        key("n,escape", "answer(False)", "tui_forms.key_no"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 90%; max-width: 100; height: auto; padding: 1 2;
                               border: round $accent; background: $surface; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, markup=False)
        yield Footer()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
