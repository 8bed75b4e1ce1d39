"""The home screen outside a git repository, and a store that cannot be read: the title
says what ``gz-ia session list`` says there, never a git command's own failure."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.tui.conftest import Gz, make_app, until

pytestmark = [pytest.mark.anyio]


def title(app: object) -> str:
    return str(app.screen.query_one("#title", Static).render())  # type: ignore[attr-defined]


async def test_outside_git_the_title_is_the_list_not_a_git_error(tmp_path: Path,
                                                                 english: None) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    store = SessionStore(find_project(folder))
    store.create(SessionRecord(id="d1d2d3d4", provider="shell", status="completed",
                               started_at="2026-03-01T10:00:00Z", is_isolated=False))
    app = make_app(folder, refresh_s=0.1)
    async with app.run_test(size=(120, 30)) as pilot:
        table = app.screen.query_one("#sessions", DataTable)
        await until(pilot, lambda: table.row_count == 1, "the session")
        await until(pilot, lambda: "direct mode" in str(
            app.screen.query_one("#preview", Static).render()), "the preview, after the counts")
        await app.workers.wait_for_complete()  # the counts' call (it failed outside git)
        await pilot.pause()  # and what it said, shown
        assert title(app) == "Sessions: 1 of 1 · status: all"
        assert str(table.get_row("d1d2d3d4")[-1]) == "-"


@pytest.mark.parametrize(("language", "env"), [("english", {}), ("spanish", {"GZ_LANG": "es"})])
async def test_a_store_that_cannot_be_read_is_said_as_session_list_says_it(
        tmp_path: Path, gz: Gz, language: str, env: dict[str, str],
        request: pytest.FixtureRequest) -> None:
    request.getfixturevalue(language)
    folder = tmp_path / "project"
    (folder / ".harness").mkdir(parents=True)
    (folder / ".harness" / "sessions").write_text("")  # a file where the folder should be
    app = make_app(folder)
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: title(app).startswith("Error"), "the error in the title")
        shown = title(app)
    cli = gz("session", "list", cwd=folder, env=env)
    assert (cli.exit_code, "   ".join(cli.stderr.splitlines())) == (1, shown)
