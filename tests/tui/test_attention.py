"""The home screen puts the sessions that need the person first: those whose agent waits,
then the running ones, then the ended, newest first within each group; a session that
starts waiting rings the bell once and marks the title."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from gzia.sessions.agent_state import record_transition
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.rows import attention_first
from gzia.tui.screens.sessions import state_cell as state_cell_of
from gzia.tui.screens.sessions import waiting_mark
from tests.sessions.session_testkit import make_session
from tests.tui.conftest import Gz, make_app, until
from tests.tui.test_session_flows import table_ids, text_of

pytestmark = [pytest.mark.anyio]


def record(session_id: str, status: str, state: str | None) -> SessionRecord:
    return SessionRecord(id=session_id, provider="shell", status=status, state=state)


def test_waiting_first_then_running_then_ended_keeping_newest_first() -> None:
    newest_first = [record("e1", "completed", "exited"), record("r1", "running", "working"),
                    record("w1", "running", "waiting"), record("e2", "failed", "waiting"),
                    record("r2", "running", "idle"), record("w2", "running", "waiting"),
                    record("r3", "running", None)]
    assert [r.id for r in attention_first(newest_first)] == [
        "w1", "w2", "r1", "r2", "r3", "e1", "e2"]


def hooked_session(gz: Gz, repo: Path) -> str:
    """A background session of a stand-in Claude Code: no detector writes its state."""
    result = gz("--json", "chat", "-b", "-p", "claude", "-i", "fix it", "--no-mcp", cwd=repo)
    assert result.exit_code == 0, result.stderr
    return str(result.json["data"]["id"])


def state_cell(app: GzApp, session_id: str) -> object:
    return app.screen.query_one("#sessions", DataTable).get_row(session_id)[1]


class BellCounting(GzApp):
    """The app, its bells counted (a headless app writes none)."""

    bells = 0

    def bell(self) -> None:
        self.bells += 1


async def test_a_session_that_starts_waiting_comes_first_rings_once_and_marks_the_title(
        gz: Gz, agent: Callable[[str, str], Path], repo: Path, english: None) -> None:
    project = find_project(repo)
    make_session(project, "e0000001", started_at="2026-03-01T10:00:00Z")
    make_session(project, "e0000002", started_at="2026-03-01T11:00:00Z")
    agent("claude", "time.sleep(300)\n")  # reports its state by hooks only: here, the test's
    older, newer = hooked_session(gz, repo), hooked_session(gz, repo)
    base = make_app(repo)
    app = BellCounting(base.tui_context)
    store = SessionStore(project)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, lambda: table_ids(app) == [newer, older, "e0000002", "e0000001"],
                        "running first, newest first")
            assert app.bells == 0
            record_transition(store, older, "waiting", reason="a question", source="hook")
            await until(pilot, lambda: table_ids(app)[0] == older, "the waiting session first")
            assert table_ids(app) == [older, newer, "e0000002", "e0000001"]
            await until(pilot, lambda: "(1 waiting)" in text_of(app, "#title"), "the mark")
            assert app.title == "gz-ia (1 waiting)"
            assert app.bells == 1
            record_transition(store, newer, "working", source="hook")  # read again, still 1
            await until(pilot, lambda: str(state_cell(app, newer)) == "working", "a refresh")
            assert app.bells == 1  # once per transition, not per refresh
            record_transition(store, older, "working", source="hook")
            await until(pilot, lambda: "waiting" not in text_of(app, "#title"), "no mark")
            assert app.title == "gz-ia"
            record_transition(store, older, "waiting", source="hook")
            await until(pilot, lambda: app.bells == 2, "a second bell for a second wait")
    finally:
        gz("session", "kill", older, cwd=repo)
        gz("session", "kill", newer, cwd=repo)


def test_the_mark_in_english(english: None) -> None:
    assert (waiting_mark(0), waiting_mark(1), waiting_mark(3)) == (
        "", "(1 waiting)", "(3 waiting)")


def test_the_mark_in_spanish(spanish: None) -> None:
    assert (waiting_mark(1), waiting_mark(3)) == ("(1 esperando)", "(3 esperando)")


def test_only_a_running_session_that_waits_stands_out() -> None:
    styles = [str(state_cell_of(r, "x").style) for r in (
        record("w", "running", "waiting"), record("e", "failed", "waiting"),
        record("r", "running", "working"))]
    assert styles == ["bold reverse", "", ""]
