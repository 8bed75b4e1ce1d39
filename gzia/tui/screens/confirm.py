"""Modal dialogs: a yes/no question before anything destructive, a notice (a report or
an error with its hint, as the CLI words them), a line of text to send to a session, a
session's new name."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from gzia.contract import Problem
from gzia.i18n import N_, gettext
from gzia.tui.keys import key, translate_bindings
from gzia.views.problems import error_lines

DIALOG_CSS = """
ModalScreen { align: center middle; }
ModalScreen > Vertical { width: 90%; max-width: 100; height: auto; max-height: 90%;
                         border: round $accent; padding: 0 1; background: $surface; }
ModalScreen .dialog-title { text-style: bold; }
ModalScreen .dialog-body { height: auto; max-height: 16; }
ModalScreen .error { color: $error; }
"""


class ConfirmScreen(ModalScreen[bool]):
    """``question`` and what it would do (``details``); ``y`` answers yes, ``n``/Esc no."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        key("y", "answer(True)", N_("Yes")),
        key("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, details: list[str] | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.question = question
        self.details = details or []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static("\n".join(self.details), markup=False)
            yield Static(gettext("y: yes   n / Esc: no"))
        yield Footer(compact=True)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class NoticeScreen(ModalScreen[None]):
    """Lines to read (a report, or an error and its hint); Enter or Esc closes it."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [key("enter,escape", "close", N_("Close"))]

    def __init__(self, title: str, lines: list[str], *, error: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title
        self.lines = lines
        self.error = error

    @classmethod
    def of_problem(cls, problem: Problem) -> NoticeScreen:
        """An error as the CLI prints it: ``Error: <message>``, then the hint."""
        return cls(gettext("Error ({code})", code=problem.code), error_lines(problem), error=True)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static("\n".join(self.lines), markup=False,
                             classes="error" if self.error else "")
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[tuple[str, str] | None]):
    """A line to send to a session: Enter submits it (text, then Enter); Ctrl+K sends it
    as key names (``C-c``, ``Escape``, ``Up``...). Dismissed with ``(how, text)``."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        key("enter", "send('submit')", N_("Submit"), priority=True),
        key("ctrl+k", "send('keys')", N_("Send as keys"), priority=True),
        key("escape", "cancel", N_("Cancel")),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Input(placeholder=gettext("Text (Enter: text + Enter) or key names (Ctrl+K): C-c "
                                            "Escape Up"),
                        id="text")
        yield Footer(compact=True)

    def action_send(self, how: str) -> None:
        self.dismiss((how, self.query_one("#text", Input).value))

    def action_cancel(self) -> None:
        self.dismiss(None)


class NameScreen(ModalScreen[str | None]):
    """A session's new name, its current one to edit: Enter dismisses with the text
    (empty: no name), Esc with None."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        key("enter", "rename", N_("Rename"), priority=True),
        key("escape", "cancel", N_("Cancel")),
    ]

    def __init__(self, title: str, name: str | None) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title
        self.name_now = name or ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Input(self.name_now, placeholder=gettext("Name (empty: no name)"), id="name")
        yield Footer(compact=True)

    def action_rename(self) -> None:
        self.dismiss(self.query_one("#name", Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)
