"""How a foreground session ended, shown when the TUI comes back: the CLI's own lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from gzia.i18n import t
from gzia.tui.keys import key, translate_bindings
from gzia.tui.screens.forms import problem_text

if TYPE_CHECKING:
    from gzia.sessions.runner import SessionRun


class OutcomeScreen(ModalScreen[None]):
    """The outcome of a run; any of its keys goes back to the session list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        key("enter", "close", "tui_forms.key_ok"),
        key("escape", "close", "tui_forms.key_ok", show=False),
    ]
    DEFAULT_CSS = """
    OutcomeScreen { align: center middle; }
    OutcomeScreen #outcome { width: 90%; max-width: 100; height: auto; padding: 1 2;
                             border: thick $primary; background: $surface; }
    OutcomeScreen #outcome.-failed { border: thick $error; }
    """

    def __init__(self, lines: list[str], *, failed: bool) -> None:
        super().__init__()
        translate_bindings(self)
        self.lines = lines
        self.failed = failed

    def compose(self) -> ComposeResult:
        with Vertical(id="outcome", classes="-failed" if self.failed else ""):
            yield Static("\n".join(self.lines), markup=False)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


def outcome_of(run: SessionRun) -> OutcomeScreen:
    """The CLI's success lines, or its error line and hint (``gz-ia chat``'s outcome)."""
    from gzia.cli.run_report import run_error
    from gzia.sessions.runner import RunEnd

    record = run.record
    if run.end is not RunEnd.COMPLETED:
        return OutcomeScreen(problem_text(run_error(run)).splitlines(), failed=True)
    lines = [t("run.finished_ok", id=record.id)]
    if record.is_isolated:
        lines.append(t("run.next_steps", id=record.id).strip())
    return OutcomeScreen(lines, failed=False)
