"""A session's pull request (``session pr``) in the TUI's detail, as ``session show`` has it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from gzia.sessions.project import find_project
from gzia.tui.screens.detail import DetailScreen
from gzia.tui.screens.sessions import SessionsScreen
from tests.sessions.session_testkit import make_repo, make_session
from tests.tui.conftest import make_app, until

pytestmark = [pytest.mark.anyio]

URL = "https://forgejo.example/acme/widget/pulls/3"


async def test_the_detail_shows_the_pull_request(tmp_path: Path, english: None) -> None:
    repo = make_repo(tmp_path / "repo")
    make_session(find_project(repo), "b0000001", name="login fix", pull_request={
        "number": 3, "url": URL, "state": "open", "remote": "origin", "base": "main",
        "forge": "Forgejo"})
    app = make_app(repo, refresh_s=3600)
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen)
                    and app.screen.current() is not None, "the session")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen), "the detail screen")
        body = app.screen.query_one("#record-body", Static)
        await until(pilot, lambda: "Pull request:" in str(body.render()), "the record")
        assert f"Pull request: #3 open {URL}" in str(body.render()).splitlines()
