"""The app starts on the sessions screen and lists a project's sessions."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.context import TuiContext
from tests.sessions.session_testkit import make_repo, make_session


@pytest.mark.anyio
async def test_home_lists_sessions(tmp_path: Path) -> None:
    project = find_project(make_repo(tmp_path / "repo"))
    make_session(project, "aaaa1111")
    app = GzApp(TuiContext(SessionStore(project)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one("#sessions", DataTable)
        assert table.row_count == 1
        await pilot.press("n")
        assert type(app.screen).__name__ == "NewSessionScreen"
        await pilot.press("escape")
        assert type(app.screen).__name__ == "SessionsScreen"
