"""The home screen: the project's sessions, refreshed from the store in a worker thread.

The table is filtered by text (``/``) and by status (``s`` cycles through them); the
preview pane shows the selected session's last output or its diff stat.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Footer, Input, Static

from gzia.i18n import t
from gzia.sessions.record import SessionRecord, Status
from gzia.tui import services
from gzia.tui.keys import key
from gzia.tui.rows import COLUMN_TITLES, matches, row_of
from gzia.tui.screens.base import GzScreen

STATUSES: tuple[str | None, ...] = (None, *(s.value for s in Status))


class SessionsScreen(GzScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        key("q", "app.quit", "tui.key_quit"),
        key("slash", "filter", "tui.key_filter"),
        key("s", "cycle_status", "tui.key_status"),
        key("r", "reload", "tui.key_reload"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.records: list[SessionRecord] = []
        self.status_filter: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(t("tui.sessions_title"), id="title")
        yield Input(placeholder=t("tui.filter_placeholder"), id="filter")
        yield DataTable(id="sessions", cursor_type="row", zebra_stripes=False)
        yield Static("", id="preview")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#sessions", DataTable)
        for title in COLUMN_TITLES:
            table.add_column(t(title), key=title)
        table.focus()
        self.action_reload()
        self.set_interval(self.context.refresh_s, self.action_reload)

    def action_reload(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="sessions")
    def _load(self) -> None:
        result = services.list_sessions(self.context.store)
        self.app.call_from_thread(self._show, result.records)

    def _show(self, records: list[SessionRecord]) -> None:
        self.records = records
        self._fill()

    def _fill(self) -> None:
        table = self.query_one("#sessions", DataTable)
        text = self.query_one("#filter", Input).value
        now = self.context.clock()
        table.clear()
        for record in self.records:
            if matches(record, text, self.status_filter):
                table.add_row(*row_of(record, now, None), key=record.id)

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_cycle_status(self) -> None:
        index = STATUSES.index(self.status_filter)
        self.status_filter = STATUSES[(index + 1) % len(STATUSES)]
        self._fill()

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        self._fill()
