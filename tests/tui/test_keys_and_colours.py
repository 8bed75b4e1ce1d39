"""The home screen's statuses in their colours, Enter (attach a background session that
runs, details otherwise), the ``?`` screen of keys, and a command palette that lists
gz-ia's actions, not the table's cursor keys."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from rich.color import ColorSystem
from rich.style import Style
from rich.text import Text
from textual.command import CommandPalette
from textual.filter import ANSIToTruecolor
from textual.pilot import Pilot
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from gzia.sessions.record import Status
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.keys import is_gz_ia_key
from gzia.tui.screens.detail import DetailScreen
from gzia.tui.screens.help import HelpScreen
from gzia.tui.status_colours import SANDBOXED_STYLE, STATUS_COLOURS, TIMED_OUT
from tests.sessions.session_testkit import make_repo, make_session
from tests.tui.conftest import make_app, until

pytestmark = [pytest.mark.anyio]

STATUSES = {"a0000002": "completed", "a0000003": "failed",
            "a0000004": "killed", "a0000005": "lost", "a0000006": "killed"}


@pytest.fixture
def every_status(tmp_path: Path) -> Path:
    """One session per status, and one a watchdog stopped (killed, end_reason timeout)."""
    repo = make_repo(tmp_path / "repo")
    project = find_project(repo)
    for session_id, status in STATUSES.items():
        make_session(project, session_id, status=status)
    SessionStore(project).update("a0000006", lambda r: setattr(r, "end_reason", "timeout"))
    return repo


def status_cell(app: GzApp, session_id: str) -> Text:
    cell = app.screen.query_one("#sessions", DataTable).get_row(session_id)[2]
    assert isinstance(cell, Text)
    return cell


def rows(app: GzApp) -> int:
    return app.screen.query_one("#sessions", DataTable).row_count


@contextlib.asynccontextmanager
async def home_of(repo: Path, size: tuple[int, int]) -> AsyncIterator[tuple[GzApp, Pilot[None]]]:
    """The app on ``repo``, its home screen listing every session."""
    app = make_app(repo, refresh_s=3600)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: rows(app) == len(STATUSES), "the sessions")
        yield app, pilot


def test_every_status_has_a_colour() -> None:
    assert {s.value for s in Status} <= set(STATUS_COLOURS)


async def test_statuses_are_drawn_in_their_colours(every_status: Path, english: None) -> None:
    async with home_of(every_status, (120, 30)) as (app, _pilot):
        styles = {}
        for session_id in STATUSES:
            cell = status_cell(app, session_id)
            styles[session_id] = (cell.plain, [str(span.style) for span in cell.spans])
    assert styles == {  # running: a real session's, in test_enter_attaches...
        "a0000002": ("completed", [STATUS_COLOURS["completed"]]),
        "a0000003": ("failed", [STATUS_COLOURS["failed"]]),
        "a0000004": ("killed", [STATUS_COLOURS["killed"]]),
        "a0000005": ("lost", [STATUS_COLOURS["lost"]]),
        "a0000006": ("killed", [STATUS_COLOURS[TIMED_OUT]]),
    }
    assert len({STATUS_COLOURS[s] for s in ("running", "completed", "failed", "killed",
                                            TIMED_OUT, "lost")}) == 6


async def test_each_status_reaches_the_terminal_in_a_colour_of_its_own(
        every_status: Path) -> None:
    """Each status's style as the terminal gets it: through the app's colour filter (which
    draws named colours from Textual's palette: there red and magenta were one colour),
    then in 24-bit colour, in 256 colours and in the 16 of ``TERM=xterm``. No two
    statuses share a colour (bold alone is not told apart at a glance), and no status is
    drawn in the colour of the table's plain text: italic or dim does not make it another
    (many terminals draw no italic; paused was the plain text's white, in italic, in 16
    colours)."""
    async with home_of(every_status, (120, 30)) as (app, _pilot):
        table = app.screen.query_one("#sessions", DataTable)
        background = table.styles.background.rich_color
        plain = Style(color=table.styles.color.rich_color)
        [palette] = [f for f in app._filters if isinstance(f, ANSIToTruecolor)]
        drawn = {status: palette.truecolor_style(Style.parse(style), background)
                 for status, style in STATUS_COLOURS.items()}
    for system in (ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
        seen = {status: _on_terminal(style, system) for status, style in drawn.items()}
        alike = [(a, b) for a in seen for b in seen if a < b and seen[a][0] == seen[b][0]]
        assert not alike, (system, seen)
        assert _on_terminal(plain, system)[0] not in {c for c, *_ in seen.values()}, (
            system, seen)


def _on_terminal(style: Style, system: ColorSystem) -> tuple[object, ...]:
    colour = style.color.downgrade(system) if style.color else None
    shown = colour.triplet if system == ColorSystem.TRUECOLOR and colour else (
        colour.number if colour else None)
    return shown, bool(style.bold), bool(style.italic), bool(style.dim)


@pytest.mark.parametrize(("language", "mark"), [("english", "sandboxed"),
                                              ("spanish", "en sandbox")])
async def test_a_sandboxed_session_is_marked_after_its_provider(
        tmp_path: Path, language: str, mark: str, request: pytest.FixtureRequest) -> None:
    """The CLI's MODE column says ``Sandboxed``; the table, which has no MODE column, says
    it after the provider, in the style of :mod:`gzia.tui.status_colours`."""
    request.getfixturevalue(language)
    repo = make_repo(tmp_path / "repo")
    project = find_project(repo)
    for session_id in ("b0000001", "b0000002"):
        make_session(project, session_id)
    SessionStore(project).update("b0000002", lambda r: setattr(
        r, "sandbox", {"network": "none", "rw": [], "hidden": []}))
    app = make_app(repo, refresh_s=3600)
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.screen.query_one("#sessions", DataTable)
        await until(pilot, lambda: table.row_count == 2, "the sessions")
        plain, sandboxed = (table.get_row(i)[3] for i in ("b0000001", "b0000002"))
    assert (str(plain), str(sandboxed)) == ("shell", f"shell {mark}")
    assert [(sandboxed.plain[s.start:s.end], str(s.style)) for s in sandboxed.spans] == [
        (mark, SANDBOXED_STYLE)]


async def test_enter_opens_the_details_of_a_session_that_does_not_run(
        every_status: Path, english: None) -> None:
    async with home_of(every_status, (120, 30)) as (app, pilot):
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen), "the details")


HOME_KEYS = [
    "⏎     Open: attach if it runs in the background, else details",
    "esc   Back",
    "o     Details",
    "/     Filter",
    "s     Status",
    "k     Stop",
    "m     Merge",
    "d     Delete",
    "a     Attach",
    "i     Input",
    "R     Rename",
    "P     Pause",
    "v     Revive",
    "p     Prune",
    "f5    Reload",
    "q     Quit",
    "^q    Quit",
    "n     New",
    "u     Update",
    "^p    Commands: every action by name",
    "?     These keys",
]


async def test_question_mark_lists_the_keys_of_the_screen(every_status: Path,
                                                          english: None) -> None:
    async with home_of(every_status, (100, 30)) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.lines == HOME_KEYS
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_question_mark_in_spanish(every_status: Path, spanish: None) -> None:
    async with home_of(every_status, (100, 30)) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        lines = app.screen.lines
    assert lines[0] == "⏎     Abrir: conectar si corre en segundo plano; si no, detalles"
    assert lines[-2:] == ["^p    Comandos: cada acción por su nombre", "?     Estas teclas"]


def declared_keys(app: GzApp) -> set[tuple[str, str]]:
    """The gz-ia bindings the current screen and the app declare and allow now, as
    ``(key as shown, description)``: built from the bindings, not from what ``?`` lists."""
    screen = app.screen
    found = set()
    for node in (screen, app):
        for bindings in node._bindings.key_to_bindings.values():
            for binding in bindings:
                if not is_gz_ia_key(binding) or binding.action.endswith(
                        ("command_palette", "help")):
                    continue
                action = binding.action.removeprefix("app.")
                owner = app if binding.action.startswith("app.") else node
                name, _, _ = action.partition("(")
                if owner.check_action(name, ()) is not True:
                    continue
                found.add((binding.key_display or app.get_key_display(binding),
                           binding.description))
    return found


@pytest.mark.parametrize("keys", [(), ("o",), ("n",)], ids=["home", "detail", "new session"])
async def test_question_mark_lists_every_key_the_screen_declares(
        every_status: Path, english: None, keys: tuple[str, ...]) -> None:
    """Every gz-ia key of the screen (and the app's) that works there is in ``?``'s list,
    with its description; a key a focused widget shadows (Enter on the table) too."""
    async with home_of(every_status, (100, 30)) as (app, pilot):
        for name in keys:
            await pilot.press(name)
            await app.workers.wait_for_complete()
            await pilot.pause()
        declared = declared_keys(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        listed = {tuple(part.strip() for part in line.split("   ", 1))
                  for line in app.screen.lines}
    missing = {(key_name, text) for key_name, text in declared
               if not any(text == title and key_name in shown for shown, title in listed)}
    assert declared and not missing


def palette_entries(app: GzApp) -> list[str]:
    listing = app.screen.query_one("CommandList")
    return [str(listing.get_option_at_index(i).prompt)  # type: ignore[attr-defined]
            for i in range(listing.option_count)]  # type: ignore[attr-defined]


async def test_the_palette_opens_on_gz_ias_actions_not_the_tables_cursor(
        every_status: Path, english: None) -> None:
    async with home_of(every_status, (100, 30)) as (app, pilot):
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await until(pilot, lambda: len(palette_entries(app)) >= 10, "the palette's entries")
        entries = palette_entries(app)
    titles = {entry.split("\n")[0].strip() for entry in entries}
    assert not titles & {"Cursor up", "Cursor down", "Page up", "Select", "Top", "Focus Next",
                         "Copy selected text"}
    assert {"Attach", "Delete", "Details", "Stop", "Merge", "New", "Update", "Pause",
            "Revive"} <= titles
