"""The sessions and detail screens against real background sessions in a real repository:
watch one in the list, read its output and diff, send it input, merge it, kill one,
delete one. Each action goes through the same service as its ``gz-ia session`` command."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from rich.syntax import Syntax
from textual.widgets import DataTable, Input, Static

from gzia.tui.app import GzApp
from gzia.tui.screens.confirm import ConfirmScreen, NoticeScreen, TextScreen
from gzia.tui.screens.detail import DetailScreen
from gzia.tui.screens.sessions import SessionsScreen
from tests.background.conftest import stored, wait_final
from tests.tui.conftest import Gz, background, make_app, until

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("english")]

WRITE_THEN_WAIT = 'echo hello > new.txt; echo wrote-the-file; read line; echo "got:$line"'


def text_of(app: GzApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.code if isinstance(content, Syntax) else str(content)


def table_ids(app: GzApp) -> list[str]:
    table = app.screen.query_one("#sessions", DataTable)
    return [str(row.key.value) for row in table.ordered_rows]


def status_in_table(app: GzApp, session_id: str) -> str:
    table = app.screen.query_one("#sessions", DataTable)
    return str(table.get_row(session_id)[2])  # after ID and STATE


def first_hit(app: GzApp) -> str:
    listing = app.screen.query("CommandList")
    if not listing or not listing.first().option_count:
        return ""
    return str(listing.first().get_option_at_index(0).prompt)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True).stdout


async def test_watch_read_send_input_and_merge(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, WRITE_THEN_WAIT)
    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: table_ids(app) == [session], "the session in the list")
        assert status_in_table(app, session) == "running"
        await until(pilot, lambda: "wrote-the-file" in text_of(app, "#preview"),
                    "its output in the preview")
        await pilot.press("o")  # details (Enter attaches to a background session that runs)
        await until(pilot, lambda: isinstance(app.screen, DetailScreen), "the detail screen")
        await until(pilot, lambda: "+hello" in text_of(app, "#diff-body"), "the diff")
        assert "new.txt" in text_of(app, "#diff-body")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, TextScreen)
                    and isinstance(app.focused, Input), "the input box, focused")
        await pilot.press(*"yes", "enter")
        await until(pilot, lambda: "got:yes" in text_of(app, "#output-body"), "the reply")
        assert wait_final(repo, session)["status"] == "completed"
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the merge question")
        assert app.screen.details == ["Integrated files:", "  • new.txt"]
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, NoticeScreen), "the merge report")
        assert app.screen.lines == [f"✓ Merge completed successfully for session '{session}'.",
                                    "Integrated files:", "  • new.txt",
                                    "Fast-forward of main: no merge commit was made."]
    assert (repo / "new.txt").read_text() == "hello\n"
    assert stored(repo, session)["merged_at"]


async def test_merge_reads_the_store_not_the_screens_older_copy(gz: Gz, repo: Path) -> None:
    """The detail screen still shows the session running (it is not refreshed here) when
    the session ends; merge must check the record the store holds, as the command does."""
    session = background(gz, repo, WRITE_THEN_WAIT)
    app = make_app(repo, refresh_s=3600)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: table_ids(app) == [session], "the session in the list")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                    and "running" in text_of(app, "#heading"), "the detail")
        gz("session", "submit", session, "yes", cwd=repo)
        assert wait_final(repo, session)["status"] == "completed"
        assert "running" in text_of(app, "#heading")
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the merge question")
        assert app.screen.details == ["Integrated files:", "  • new.txt"]


async def question_of_k(pilot: Any, app: GzApp, session: str) -> str:
    """What ``k`` asks about ``session`` once it is in the list."""
    await until(pilot, lambda: table_ids(app) == [session], "the session in the list")
    await pilot.press("k")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
    assert isinstance(app.screen, ConfirmScreen)
    return str(app.screen.question)


async def test_k_asks_first_then_stops_the_session(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, "echo ready; sleep 60")
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await question_of_k(pilot, app, session) == (
            f"Stop session '{session}'? Its agent is asked to end as a person would end it, "
            "and killed if it has not ended in time.")
        await pilot.press("n")  # no: nothing happens
        assert isinstance(app.screen, SessionsScreen)
        assert stored(repo, session)["status"] == "running"
        assert await question_of_k(pilot, app, session)
        await pilot.press("y")
        await until(pilot, lambda: status_in_table(app, session) == "killed", "stopped")
    final = wait_final(repo, session)
    assert (final["status"], final["end_reason"]) == ("killed", "stopped")


async def test_k_offers_a_kill_once_a_stop_was_asked_and_it_still_runs(
        gz: Gz, repo: Path) -> None:
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore

    session = background(gz, repo, "echo ready; sleep 60")
    SessionStore(find_project(repo)).update(
        session, lambda r: setattr(r, "stop_requested_at", "2026-12-03T14:00:00.000000Z"))
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await question_of_k(pilot, app, session) == (
            f"Kill session '{session}'? Its processes get SIGTERM, then SIGKILL after the grace.")
        await pilot.press("y")
        await until(pilot, lambda: status_in_table(app, session) == "killed", "killed")
    final = wait_final(repo, session)
    assert (final["status"], final["end_reason"]) == ("killed", "killed")


async def test_delete_asks_first_then_removes_it_everywhere(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, "echo done")
    wait_final(repo, session)
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_ids(app) == [session], "the session in the list")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                    and app.screen.view is not None, "the detail screen")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == (f"Delete session '{session}' from .harness/sessions/ "
                                       "(its worktree and branch too)?")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "back home")
        await until(pilot, lambda: table_ids(app) == [], "the empty list")
    assert not (repo / ".harness" / "sessions" / f"{session}.json").exists()
    assert f"harness/{session}" not in git(repo, "branch", "--list")


async def test_merge_lists_conflicts_before_anything_changes(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, "echo theirs > README; echo done")
    wait_final(repo, session)
    (repo / "README").write_text("ours\n")
    git(repo, "commit", "-qam", "ours")
    head = git(repo, "rev-parse", "HEAD")
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_ids(app) == [session], "the session in the list")
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, NoticeScreen), "the refusal")
        notice = app.screen
        assert isinstance(notice, NoticeScreen)
        assert notice.title_text == "Error (CONFLICT)"
        shown = notice.lines
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == ""
    cli = gz("session", "merge", session, cwd=repo)  # the same words as the command line
    assert (cli.exit_code, cli.stderr.splitlines()) == (1, shown)
    assert shown[0].startswith(f"Error: merging session '{session}' would conflict in 1 file: "
                               "README. Nothing was changed")


async def test_filter_by_text_and_status(gz: Gz, repo: Path) -> None:
    finished = background(gz, repo, "echo done")
    wait_final(repo, finished)
    running = background(gz, repo, "echo ready; sleep 60")
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: sorted(table_ids(app)) == sorted([finished, running]),
                    "both sessions")
        await pilot.press("slash", *running[:5])
        assert table_ids(app) == [running]
        assert text_of(app, "#title") == "Sessions: 1 of 2 · status: all"
        await pilot.press("escape")  # back to the table; the filter is kept
        assert table_ids(app) == [running]
        await pilot.press("slash", "ctrl+u", "escape")
        await until(pilot, lambda: len(table_ids(app)) == 2, "the filter cleared")
        await pilot.press("s", "s")  # all -> running -> completed
        assert table_ids(app) == [finished]
        assert text_of(app, "#title") == "Sessions: 1 of 2 · status: completed"
        await pilot.press("s")
        assert table_ids(app) == []
        await pilot.press("k", "y")  # no session selected: nothing to kill
        assert isinstance(app.screen, SessionsScreen)
    gz("session", "kill", running, cwd=repo)


async def test_prune_asks_first_then_reports_as_the_cli_does(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, "echo done")
    wait_final(repo, session)
    (repo / ".harness" / "sessions" / f"{session}.json").unlink()  # its worktree: an orphan
    an_hour_ago = time.time() - 3600  # not one a session is being started in
    os.utime(repo / ".harness" / "worktrees" / session, (an_hour_ago, an_hour_ago))
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "0 of 0" in text_of(app, "#title"), "the empty list")
        await pilot.press("ctrl+p", *"Prune")
        await until(pilot, lambda: first_hit(app).startswith("Prune"), "the palette's hit")
        await pilot.press("enter")  # the first hit is highlighted
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert app.screen.question == (
            "Remove worktrees and harness/* branches that have no record?")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, NoticeScreen), "the report")
        assert app.screen.title_text == "Prune"
        lines = app.screen.lines
    assert lines[:2] == ["✧ Orphan cleanup:", f"  ✓ Orphaned worktree pruned: {session}"]
    assert not (repo / ".harness" / "worktrees" / session).exists()
    assert f"harness/{session}" not in git(repo, "branch", "--list")
    again = gz("session", "prune", cwd=repo)
    assert again.stdout == "✓ No orphaned Git branches or worktrees found. Everything is in sync.\n"
