"""The home screen shows each sub-session under the session that started it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from tests.sessions.session_testkit import make_session
from tests.tui.conftest import make_app, until
from tests.tui.test_session_flows import table_ids

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("english")]


async def test_children_are_listed_under_their_parent(repo: Path) -> None:
    project = find_project(repo)
    make_session(project, "aaaa0001", started_at="2026-03-01T10:00:00Z")
    make_session(project, "bbbb0002", started_at="2026-03-01T11:00:00Z", parent_id="aaaa0001")
    make_session(project, "cccc0003", started_at="2026-03-01T12:00:00Z", parent_id="bbbb0002")
    make_session(project, "dddd0004", started_at="2026-03-01T13:00:00Z")
    app = make_app(repo)
    async with app.run_test(size=(120, 30)) as pilot:
        order = ["dddd0004", "aaaa0001", "bbbb0002", "cccc0003"]
        await until(pilot, lambda: table_ids(app) == order, "the sessions as a tree")
        table = app.screen.query_one("#sessions", DataTable)
        assert [str(table.get_row(i)[0]) for i in order] == [
            "dddd0004", "aaaa0001", "└ bbbb0002", "  └ cccc0003"]
