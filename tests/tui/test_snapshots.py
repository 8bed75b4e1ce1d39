"""The home and detail screens pinned as pictures at 80x24 and 120x40.

Deterministic by construction: fixed session ids and start times, a frozen clock for ages
and durations, a repository whose commits carry fixed dates, and no path on screen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from gzia.sessions.workspace import worktree_for
from gzia.tui.app import GzApp
from gzia.tui.screens.detail import DetailScreen
from tests.sessions.session_testkit import commit_file, make_repo, make_session
from tests.tui.conftest import make_app, until

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC).timestamp()
SIZES = [(80, 24), (120, 40)]
Snap = Callable[..., bool]


@pytest.fixture
def fixed_commit_dates(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(name, "2026-03-01T09:00:00Z")
    for name, value in (("GIT_AUTHOR_NAME", "Ada"), ("GIT_AUTHOR_EMAIL", "ada@example.org"),
                        ("GIT_COMMITTER_NAME", "Ada"),
                        ("GIT_COMMITTER_EMAIL", "ada@example.org")):
        monkeypatch.setenv(name, value)
    yield


@pytest.fixture
def sessions_repo(tmp_path: Path, fixed_commit_dates: None) -> Path:
    """Three finished sessions: one ahead of main with a change, one that changed
    nothing, one killed with uncommitted work; main moved on by one commit."""
    repo = make_repo(tmp_path / "repo")
    project = find_project(repo)
    make_session(project, "a1b2c3d4", started_at="2026-03-01T11:15:00Z",
                 labels={"team": "core"}, initial_prompt="add the greeting")
    commit_file(worktree_for(project, "a1b2c3d4"), "greet.py",
                "def greet(name):\n    return f'hello {name}'\n", "greet")
    make_session(project, "0f1e2d3c", status="failed", started_at="2026-02-27T08:00:00Z")
    make_session(project, "9a8b7c6d", status="killed", started_at="2026-03-01T11:58:30Z",
                 labels={"ticket": "42"})
    (worktree_for(project, "9a8b7c6d") / "notes.md").write_text("half done\n")
    commit_file(repo, "CHANGES.md", "- base moved\n", "base")
    return repo


def still_app(repo: Path) -> GzApp:
    return make_app(repo, clock=lambda: NOW, refresh_s=3600)


async def loaded(pilot: Pilot[None]) -> None:
    app = pilot.app

    def rows() -> list[list[object]]:
        table = app.screen.query_one("#sessions", DataTable)
        return [table.get_row_at(index) for index in range(table.row_count)]

    await until(pilot, lambda: [str(row[-1]) for row in rows()] == ["+0/-1", "+1/-1", "+0/-1"],
                "the sessions and their counts")
    await until(pilot, lambda: "notes.md" in str(app.screen.query_one("#preview").render()),
                "the preview")


async def diff_tab(pilot: Pilot[None]) -> None:
    await loaded(pilot)
    await pilot.press("down", "enter")  # the second: the one with a commit
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                and app.screen.view is not None, "the detail screen")
    await pilot.press("2")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_screen(snap_compare: Snap, sessions_repo: Path, size: tuple[int, int],
                     english: None) -> None:
    assert snap_compare(still_app(sessions_repo), terminal_size=size, run_before=loaded)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_detail_screen_diff(snap_compare: Snap, sessions_repo: Path, size: tuple[int, int],
                            english: None) -> None:
    assert snap_compare(still_app(sessions_repo), terminal_size=size, run_before=diff_tab)


def test_home_screen_in_spanish(snap_compare: Snap, sessions_repo: Path, spanish: None) -> None:
    assert snap_compare(still_app(sessions_repo), terminal_size=(80, 24), run_before=loaded)

