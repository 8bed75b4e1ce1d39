"""``R`` renames the selected session (home and detail screens) as ``gz-ia session rename``
does (same checks, same messages, in either language); an empty name takes the name away."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.screens.confirm import NameScreen, NoticeScreen
from gzia.tui.screens.detail import DetailScreen
from gzia.tui.screens.sessions import SessionsScreen
from tests.sessions.session_testkit import make_repo, make_session
from tests.tui.conftest import make_app, until

pytestmark = [pytest.mark.anyio]


@pytest.fixture
def one_session(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    make_session(find_project(repo), "b0000001", name="old name")
    return repo


def name_of(repo: Path) -> str | None:
    return SessionStore(find_project(repo)).load("b0000001").name


def notices(app: GzApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@contextlib.asynccontextmanager
async def home(repo: Path) -> AsyncIterator[tuple[GzApp, Pilot[None]]]:
    """The app on ``repo``, its session selected on the home screen."""
    app = make_app(repo, refresh_s=3600)
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen)
                    and app.screen.current() is not None, "the session")
        yield app, pilot


async def rename_to(app: GzApp, pilot: Pilot[None], text: str) -> None:
    await pilot.press("R")
    await until(pilot, lambda: isinstance(app.screen, NameScreen), "the name dialog")
    field = app.screen.query_one("#name", Input)
    await pilot.press("ctrl+e", "ctrl+u", *text)
    await until(pilot, lambda: field.value == text, "the text typed")
    await pilot.press("enter")


async def test_r_renames_and_an_empty_name_takes_it_away(one_session: Path,
                                                         english: None) -> None:
    async with home(one_session) as (app, pilot):
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, NameScreen), "the name dialog")
        assert app.screen.query_one("#name", Input).value == "old name"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "cancelled")
        assert name_of(one_session) == "old name"

        await rename_to(app, pilot, "ship it")
        await until(pilot, lambda: name_of(one_session) == "ship it", "the new name")
        await until(pilot, lambda: "✓ Session 'b0000001' is now named 'ship it'."
                    in notices(app), "the CLI's line")

        await rename_to(app, pilot, "")
        await until(pilot, lambda: name_of(one_session) is None, "no name")
        await until(pilot, lambda: "✓ Session 'b0000001' no longer has a name."
                    in notices(app), "its line")


async def test_an_invalid_name_is_refused_as_the_cli_refuses_it(one_session: Path,
                                                                spanish: None) -> None:
    async with home(one_session) as (app, pilot):
        await rename_to(app, pilot, "x" * 81)
        await until(pilot, lambda: isinstance(app.screen, NoticeScreen), "the refusal")
        text = "\n".join(str(s.content) for s in app.screen.query(Static))
        assert "INVALID_INPUT" in text
        assert ("nombre de sesión no válido '" + "x" * 81 + "': una línea de 1 a 80 caracteres,"
                " sin caracteres de control") in " ".join(text.split())
    assert name_of(one_session) == "old name"


async def test_spanish_line_of_a_name_taken_away(one_session: Path, spanish: None) -> None:
    async with home(one_session) as (app, pilot):
        await rename_to(app, pilot, "")
        await until(pilot, lambda: "✓ La sesión 'b0000001' ya no tiene nombre."
                    in notices(app), "its line in Spanish")


async def test_r_renames_from_the_detail_screen_too(one_session: Path, english: None) -> None:
    async with home(one_session) as (app, pilot):
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                    and app.screen.current() is not None, "the details")
        await rename_to(app, pilot, "from the details")
        await until(pilot, lambda: name_of(one_session) == "from the details", "the new name")
        await until(pilot, lambda: "✓ Session 'b0000001' is now named 'from the details'."
                    in notices(app), "the CLI's line")
