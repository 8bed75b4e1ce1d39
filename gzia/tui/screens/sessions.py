"""The home screen: the project's sessions, read again from the store on a timer.

The first read (and reconcile) of the store is made before the first frame shown; the later
ones run in a worker thread, so the table answers keys while they load, and read the
records again only when the store changed (:class:`services.SessionListing`). The table
shows at most :data:`ROWS_SHOWN` rows, the newest the filter matches; ahead/behind counts
are asked of git for those rows only.
The table is filtered by text (``/``) and by status (``s`` cycles through them); the
preview pane shows the selected session's last output (runs that keep a log, read as
``session output`` reads it, again on every refresh) or its diff stat.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.events import Resize
from textual.widgets import DataTable, Footer, Input, Static

from gzia.i18n import N_, NC_, gettext, ngettext
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.tree import tree_order
from gzia.tui import services
from gzia.tui.keys import key
from gzia.tui.rows import (
    COLUMN_TITLES,
    ROWS_SHOWN,
    attention_first,
    columns_for,
    matches,
    row_of,
    ticked,
    waiting_ids,
)
from gzia.tui.screens.actions import SessionActions
from gzia.tui.status_colours import coloured_status, provider_cell, state_cell
from gzia.views.problems import error_lines

STATUSES: tuple[str | None, ...] = (None, *(s.value for s in Status))

Counts = dict[str, tuple[int, int]]
Cells = tuple[Text, ...]
STATUS_COLUMN = COLUMN_TITLES.index(N_("STATUS"))
STATE_COLUMN = COLUMN_TITLES.index(N_("STATE"))
PROVIDER_COLUMN = COLUMN_TITLES.index(NC_("tui.col_provider", "PROVIDER"))


class SessionsScreen(SessionActions):
    AUTO_FOCUS = "#sessions"
    DEFAULT_CSS = """
    SessionsScreen #title { height: 1; padding: 0 1; background: $panel; }
    SessionsScreen #filter { height: 1; border: none; padding: 0 1; }
    SessionsScreen #sessions { height: 1fr; }
    SessionsScreen #preview { height: 8; border-top: solid $accent; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        key("escape", "back", N_("Back"), show=False),  # home: from the filter to the table
        key("enter", "open", N_("Open: attach if it runs in the background, else details"),
            show=False),
        key("o", "details", N_("Details"), show=False),
        key("slash", "filter", N_("Filter")),
        key("s", "cycle_status", N_("Status"), show=False),  # 80 columns: in ? and the palette
        key("k", "kill", N_("Stop")),  # the stop first, the kill once a stop failed
        key("m", "merge", N_("Merge")),
        key("d", "delete", N_("Delete")),
        key("a", "attach", N_("Attach")),
        key("i", "send_input", N_("Input"), show=False),
        key("R", "rename", N_("Rename"), show=False),
        key("P", "pause", N_("Pause"), show=False),
        key("v", "revive", N_("Revive"), show=False),
        key("p", "prune", NC_("tui.key_prune", "Prune"), show=False),
        key("f5", "reload", N_("Reload"), show=False),
        key("q", "app.quit", N_("Quit")),
        key("question_mark", "app.help", N_("Keys")),  # ^p is among them: not in the footer
    ]

    def __init__(self) -> None:
        super().__init__()
        self.records: list[SessionRecord] = []
        self.depths: dict[str, int] = {}
        """How deep each sub-session is under its parent (roots are left out)."""
        self.counts: Counts = {}
        self.status_filter: str | None = None
        self.ahead_behind: services.AheadBehind | None = None
        self.columns: tuple[int, ...] = ()
        self.shown: dict[str, Cells] = {}
        """The table's rows as drawn, by session id."""
        self.to_select: str | None = None
        """A session to put the cursor on once the table lists it (one just started)."""
        self.first_read_asked = False
        self.waiting: frozenset[str] | None = None
        """The sessions whose agent waited at the last read (None before the first)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="title", markup=False)
        yield Input(placeholder=gettext("Filter: id, provider, branch, label, prompt"), id="filter")
        yield DataTable(id="sessions", cursor_type="row")
        yield Static("", id="preview", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._set_columns(self.app.size.width)
        store = self.context.store  # outside git there is no base to count against
        self.ahead_behind = services.AheadBehind(store) if store.project.is_git else None
        self.listing = services.SessionListing(self.context.store)
        self.set_interval(self.context.refresh_s, self.reload)
        if self.first_read_asked:
            self._read_first()

    def first_read(self) -> None:
        """Read the store on the UI's thread, now or once mounted. GzApp asks for it when
        Textual is ready: Textual renders the first frame while its start-up batch is open
        and drops it (``App._display`` writes nothing in a batch), and after the batch
        draws only what changes again. Read at mount, the rows were drawn for that lost
        frame, drawn again (the table's first resize clears its caches) and shown one frame
        after the footer; read now, the first frame shown has them (bench/tui.py). Later
        reads run in a worker while the table answers keys."""
        if self.is_mounted:
            self._read_first()
        else:
            self.first_read_asked = True

    def _read_first(self) -> None:
        try:
            records = self.listing.records()
        except Exception as exc:  # shown as a later read's failure is
            self._refresh_failed(exc)
            return
        self._show(records)

    def on_resize(self, event: Resize) -> None:
        if columns_for(event.size.width) != self.columns:
            self._set_columns(event.size.width)
            self._fill()

    def _set_columns(self, width: int) -> None:
        table = self.query_one("#sessions", DataTable)
        table.clear(columns=True)
        self.shown = {}
        self.columns = columns_for(width)
        for index in self.columns:
            title = gettext(COLUMN_TITLES[index])
            table.add_column(Text(title), key=COLUMN_TITLES[index], width=cell_len(title))

    def action_reload(self) -> None:
        self.listing.forget()
        self.reload()

    def reload(self) -> None:
        self.call(self.listing.records, self._show, group="sessions",
                  failed=self._refresh_failed)

    def _refresh_failed(self, exc: BaseException) -> None:
        """The title says it as ``session list`` would: its error line, then its hint."""
        self._set_text("#title", "   ".join(error_lines(services.problem_of(exc))))

    def _show(self, records: list[SessionRecord]) -> None:
        """The records; once the table is drawn, the preview and the ahead/behind counts
        (git calls in worker threads, which would otherwise compete with the drawing)."""
        ordered = tree_order(attention_first(records))  # sub-sessions under their parent
        self.records = [record for record, _ in ordered]
        self.depths = {record.id: depth for record, depth in ordered if depth}
        self._note_waiting(waiting_ids(records))
        self._fill()
        self.call_after_refresh(self._load_preview)
        self.call_after_refresh(self._load_counts)

    def _note_waiting(self, waiting: frozenset[str]) -> None:
        """A bell when a session starts waiting (once per transition, not at each read;
        not for those already waiting when the UI opens), and the count in the app's
        title: ``gz-ia (1 waiting)``."""
        if self.waiting is not None and waiting - self.waiting:
            self.app.bell()
        self.waiting = waiting
        mark = waiting_mark(len(waiting))
        name = type(self.app).TITLE or ""
        self.app.title = f"{name} {mark}" if mark else name

    def _load_counts(self) -> None:
        counter = self.ahead_behind
        if counter is not None:
            shown = [r for r in self.records if r.id in self.shown]
            self.call(lambda: counter.counts(shown), self._show_counts, group="counts",
                      failed=self._refresh_failed)

    def _show_counts(self, counts: Counts) -> None:
        if counts != self.counts:
            self.counts = counts
            self._fill()

    def select_when_listed(self, session_id: str) -> None:
        self.to_select = session_id

    def _fill(self) -> None:
        """Show the newest filtered records: only the cells that changed when the same
        sessions are listed in the same order (a refresh), else the whole table again."""
        text = self.query_one("#filter", Input).value
        now = ticked(self.context.clock())
        matching = [r for r in self.records if matches(r, text, self.status_filter)]
        shown = {r.id: self._cells(r, row_of(r, now, self.counts.get(r.id),
                                             self.depths.get(r.id, 0)))
                 for r in matching[:ROWS_SHOWN]}
        if list(shown) == list(self.shown):
            self._update_cells(shown)
        else:
            self._rebuild(shown)
        self.shown = shown
        self._show_title(len(shown), len(matching))
        if self.to_select in shown:
            table = self.query_one("#sessions", DataTable)
            table.move_cursor(row=table.get_row_index(self.to_select))
            self.to_select = None

    def _cells(self, record: SessionRecord, row: tuple[str, ...]) -> Cells:
        """The row's shown cells as texts (a record's fields are not markup), the status
        in its colour (:mod:`gzia.tui.status_colours`), a waiting agent and a sandboxed
        session marked."""
        return tuple(coloured_status(record, row[i]) if i == STATUS_COLUMN
                     else state_cell(record, row[i]) if i == STATE_COLUMN
                     else provider_cell(record, row[i]) if i == PROVIDER_COLUMN
                     else Text(row[i]) for i in self.columns)

    def _update_cells(self, shown: dict[str, Cells]) -> None:
        """A cell wider than its column widens it; any other leaves the column as it is
        (the next rebuild fits the columns again). Only a wider cell asks Textual to
        measure: told of a narrower one, it measures every row of the column again
        (bench/tui.py: about 0.2 s on the UI thread over 200 rows, at every tick that
        moves the running sessions' durations)."""
        table = self.query_one("#sessions", DataTable)
        columns = table.ordered_columns
        for session_id, cells in shown.items():
            for index, (old, new) in enumerate(zip(self.shown[session_id], cells, strict=True)):
                if old != new:  # the text or its colour
                    column = columns[index]
                    wider = new.cell_len > column.width
                    column.width = max(column.width, new.cell_len)
                    table.update_cell(session_id, column.key, new, update_width=wider)

    def _rebuild(self, shown: dict[str, Cells]) -> None:
        table = self.query_one("#sessions", DataTable)
        selected = self._selected_id()
        table.clear()
        self._fit_columns(table, list(shown.values()))
        for session_id, cells in shown.items():
            table.add_row(*cells, key=session_id)
        if selected in shown:
            table.move_cursor(row=table.get_row_index(selected))

    @staticmethod
    def _fit_columns(table: DataTable[Text], rows: list[Cells]) -> None:
        """Each column as wide as its title and widest cell, set before the rows are
        added. Left to Textual (8.2), the widths are measured when the app is next idle,
        and rows drawn before that keep their too narrow drawing: columns squeezed to
        their titles until a cell changes, about once in 15 starts over 1,000 sessions."""
        for index, column in enumerate(table.ordered_columns):
            column.width = max([column.label.cell_len, *(row[index].cell_len for row in rows)])

    def _show_title(self, shown: int, matching: int) -> None:
        status = self.status_filter or gettext("all")
        key = (N_("Sessions: {shown} of {total} · status: {status}")
               if shown == matching else N_("Sessions: showing {shown} of {matching}: filter to "
                                            "narrow · status: {status}"))
        title = gettext(key, shown=shown, matching=matching, total=len(self.records),
                        status=status)
        mark = waiting_mark(len(self.waiting or ()))
        title = f"{mark} {title}" if mark else title
        self._set_text("#title", title)

    def _selected_id(self) -> str | None:
        table = self.query_one("#sessions", DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    def current(self) -> SessionRecord | None:
        selected = self._selected_id()
        return next((r for r in self.records if r.id == selected), None)

    @on(DataTable.RowSelected, "#sessions")
    def _selected(self) -> None:
        self.action_open()

    def _set_text(self, selector: str, text: str) -> None:
        """The title and the preview have fixed sizes (DEFAULT_CSS): a new text changes no
        layout, so none is made (bench/tui.py: a layout redraws the whole table)."""
        self.query_one(selector, Static).update(text, layout=False)

    @on(DataTable.RowHighlighted, "#sessions")
    def _highlighted(self) -> None:
        self.call_after_refresh(self._load_preview)  # the cursor's move drawn first

    def _load_preview(self) -> None:
        record = self.current()
        if record is None:
            self._set_text("#preview", (gettext("No sessions in this project yet: n starts one.")
                                        if not self.records else ""))
            return
        store = self.context.store
        self.call(lambda: (record.id, services.preview_text(store, record)),
                  self._show_preview, group="preview", failed=self._preview_failed)

    def _preview_failed(self, exc: BaseException) -> None:
        self._set_text("#preview", services.problem_of(exc).message)

    def _show_preview(self, found: tuple[str, str]) -> None:
        session_id, text = found
        self._set_text("#preview", "\n".join(text.splitlines()[-6:]))
        if session_id != self._selected_id():  # the cursor moved while it was read
            self._load_preview()

    def action_open(self) -> None:
        """Enter: attach to a background session that runs (its holder serves the
        terminal), as in other session managers; any other session's details."""
        record = self.current()
        if record is None:
            return
        store = self.context.store
        self.call(lambda: services.load_session(store, record.id), self._open)

    def _open(self, record: SessionRecord) -> None:
        """As the store has it now: the list's copy may predate the holder's own write."""
        if record.is_running and record.holder is not None:
            self._on_the_terminal(lambda: services.attach(self.context.store, record))
        else:
            self.action_details()

    def action_details(self) -> None:
        from gzia.tui.screens.detail import DetailScreen

        record = self.current()
        if record is not None:
            self.app.push_screen(DetailScreen(record.id))

    def action_back(self) -> None:
        self.query_one("#sessions", DataTable).focus()

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_cycle_status(self) -> None:
        index = STATUSES.index(self.status_filter)
        self.status_filter = STATUSES[(index + 1) % len(STATUSES)]
        self._fill()

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        self._fill()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one("#sessions", DataTable).focus()


def waiting_mark(count: int) -> str:
    """``(2 waiting)``, or nothing when no agent waits."""
    return ngettext("(1 waiting)", "({count} waiting)", count) if count else ""
