"""One session: its record, its diff (highlighted), its events and its output, in tabs,
read again while it runs; and every action on it (:class:`SessionActions`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static, TabbedContent, TabPane

from gzia.i18n import N_, NC_, gettext
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.tui import services
from gzia.tui.keys import key
from gzia.tui.screens.actions import SessionActions
from gzia.tui.status_colours import colour_of
from gzia.views.sessions import status_word

TABS = (("record", N_("Record")), ("diff", N_("Diff")), ("events", N_("Events")),
        ("output", N_("Output")))


@dataclass(frozen=True)
class SessionView:
    """Everything the detail screen shows, read in one go in a worker thread."""

    record: SessionRecord
    show: list[str]
    diff: str
    events: list[str]
    output: str


def read_view(store: SessionStore, session_id: str) -> SessionView:
    record = services.load_session(store, session_id)
    output = (services.output_text(record) if record.log_path
              else gettext("session '{id}' has no output log (its agent wrote straight to "
                           "the terminal)", id=record.id))
    return SessionView(record, services.show_lines(record),
                       services.diff_text(services.diff_of(store, record)),
                       services.event_lines(store, session_id) or [gettext("(no events)")],
                       output.rstrip("\n") or gettext("(no output yet)"))


class DetailScreen(SessionActions):
    DEFAULT_CSS = """
    DetailScreen #heading { height: 1; padding: 0 1; background: $panel; }
    DetailScreen #tabs { height: 1fr; }
    DetailScreen TabPane { padding: 0; height: 1fr; }
    DetailScreen VerticalScroll { padding: 0 1; height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        key("escape", "back", N_("Back"), show=False),  # 80 columns: Esc goes without saying
        key("r", "resume", N_("Resume")),
        key("a", "attach", N_("Attach")),
        key("i", "send_input", N_("Input")),
        key("k", "kill", N_("Stop")),  # the stop first, the kill once a stop failed
        key("m", "merge", N_("Merge")),
        key("d", "delete", N_("Delete")),
        key("R", "rename", N_("Rename"), show=False),
        key("P", "pause", N_("Pause"), show=False),
        key("v", "revive", N_("Revive"), show=False),
        key("p", "prune", NC_("tui.key_prune", "Prune"), show=False),
        key("f5", "reload", N_("Reload"), show=False),
        *(key(str(n), f"tab('{name}')", label, show=False)
          for n, (name, label) in enumerate(TABS, 1)),
    ]

    def __init__(self, session_id: str) -> None:
        super().__init__()
        self.session_id = session_id
        self.view: SessionView | None = None

    def compose(self) -> ComposeResult:
        yield Static(self.session_id, id="heading", markup=False)
        with TabbedContent(id="tabs"):
            for name, label in TABS:
                with TabPane(gettext(label), id=f"tab-{name}"), VerticalScroll():
                    yield Static("", id=f"{name}-body", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.reload()
        self.set_interval(self.context.refresh_s, self._refresh_running)

    def current(self) -> SessionRecord | None:
        return self.view.record if self.view else None

    def reload(self) -> None:
        store, session_id = self.context.store, self.session_id
        self.call(lambda: read_view(store, session_id), self._show, group="detail")

    def _refresh_running(self) -> None:
        if self.view is not None and self.view.record.is_running:
            self.reload()

    def after_removal(self) -> None:
        self.app.pop_screen()

    def action_reload(self) -> None:
        self.reload()

    def action_tab(self, name: str) -> None:
        self.query_one("#tabs", TabbedContent).active = f"tab-{name}"

    def _show(self, view: SessionView) -> None:
        self.view = view
        record = view.record
        status = status_word(record)
        heading = Text(gettext("Session {id} · {status} · {provider}", id=record.id,
                               status=status, provider=record.provider or "-"))
        heading.highlight_words([f" {status} "], colour_of(record))
        self.query_one("#heading", Static).update(heading)
        self.query_one("#record-body", Static).update("\n".join(view.show))
        self.query_one("#diff-body", Static).update(highlighted_diff(view.diff))
        self.query_one("#events-body", Static).update("\n".join(view.events))
        self.query_one("#output-body", Static).update(view.output)
        if record.is_running:
            self.query_one("#tab-output VerticalScroll", VerticalScroll).scroll_end(
                animate=False)


def highlighted_diff(text: str) -> Syntax:
    return Syntax(text, "diff", theme="ansi_dark", word_wrap=False, background_color="default")
