"""Kill, delete and pause run their command's checks before asking: a refusal they already know
comes at once, in the command's words, without a question first; a delete that would be
refused offers the forced delete, asked twice, the second time with what is lost. Real
repositories, real background sessions."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from gzia.sessions.workspace import worktree_for
from gzia.tui.app import GzApp
from gzia.tui.screens.confirm import ConfirmScreen, NoticeScreen
from gzia.tui.screens.sessions import SessionsScreen
from tests.background.conftest import stored
from tests.sessions.session_testkit import commit_file, make_repo, make_session
from tests.tui.conftest import Gz, background, make_app, until

pytestmark = [pytest.mark.anyio]


@pytest.fixture
def unmerged(tmp_path: Path) -> Path:
    """A finished session with a commit its base lacks and an uncommitted file."""
    repo = make_repo(tmp_path / "repo")
    project = find_project(repo)
    make_session(project, "c0ffee00", started_at="2026-03-01T11:00:00Z")
    worktree = worktree_for(project, "c0ffee00")
    commit_file(worktree, "work.txt", "work\n", "work")
    (worktree / "draft.txt").write_text("not committed\n")
    return repo


def rows(app: GzApp) -> int:
    return app.screen.query_one("#sessions", DataTable).row_count


def branches(repo: Path) -> str:
    return subprocess.run(["git", "branch", "--list"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout


async def question(pilot: object, app: GzApp, what: str) -> ConfirmScreen:
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what)  # type: ignore[arg-type]
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)
    return screen


async def test_a_refused_delete_offers_the_forced_one_listing_what_is_lost(
        unmerged: Path, gz: Gz, english: None) -> None:
    worktree = unmerged / ".harness" / "worktrees" / "c0ffee00"
    refusal = gz("session", "delete", "c0ffee00", cwd=unmerged).stderr.splitlines()
    app = make_app(unmerged)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press("d")
        first = await question(pilot, app, "the refusal and the offer")
        assert (first.question, first.details) == (
            "Delete session 'c0ffee00' anyway, as --force does?",
            [*refusal, "To keep its work: n, then m merges it."])  # the way out, as keys
        await pilot.press("y")
        await until(pilot, lambda: app.screen is not first, "the second question")
        second = await question(pilot, app, "the second question")
        assert (second.question, second.details) == (
            "Delete session 'c0ffee00' for good? This is lost:",
            [f"  • the worktree {worktree}",
             "  • 1 uncommitted change:",
             "      draft.txt",
             "  • the branch harness/c0ffee00, with 1 commit merged nowhere"])
        assert stored(unmerged, "c0ffee00")  # nothing yet
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen) and rows(app) == 0,
                    "the empty list")
    assert not (unmerged / ".harness" / "sessions" / "c0ffee00.json").exists()
    assert not worktree.exists()
    assert "harness/c0ffee00" not in branches(unmerged)


async def test_no_at_either_question_keeps_everything(unmerged: Path, english: None) -> None:
    app = make_app(unmerged)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        for answers in (["n"], ["y", "n"]):
            await pilot.press("d")
            await question(pilot, app, "the offer")
            for answer in answers:
                await question(pilot, app, "a question")
                await pilot.press(answer)
                await pilot.pause()
            await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "back home")
    assert stored(unmerged, "c0ffee00")
    assert "harness/c0ffee00" in branches(unmerged)


async def test_a_running_session_is_stopped_by_the_forced_delete(gz: Gz, repo: Path,
                                                                english: None) -> None:
    session = background(gz, repo, "echo ready; sleep 60")
    pid = stored(repo, session)["pid"]
    app = make_app(repo)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press("d")
        first = await question(pilot, app, "the refusal")
        assert first.details[0] == (f"Error: session '{session}' is running (PID {pid}); stop it "
                                    "first or use --force")
        assert first.details[-1] == "To stop it first: n, then k."
        await pilot.press("y")
        await until(pilot, lambda: app.screen is not first, "the second question")
        second = await question(pilot, app, "the second question")
        assert second.details[0] == f"  • the running agent (PID {pid}): it is stopped"
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen) and rows(app) == 0,
                    "the empty list")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def refused_at_once(repo: Path, key: str) -> list[str]:
    """Press ``key`` on the session of ``repo``: the refusal shown, with no question first."""
    app = make_app(repo)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, NoticeScreen | ConfirmScreen),
                    "the answer")
        assert isinstance(app.screen, NoticeScreen)  # no question before the refusal
        return app.screen.lines


@pytest.mark.parametrize(("language", "env"), [("english", {}), ("spanish", {"GZ_LANG": "es"})])
async def test_kill_of_a_session_that_has_ended_is_refused_without_a_question(
        unmerged: Path, gz: Gz, language: str, env: dict[str, str],
        request: pytest.FixtureRequest) -> None:
    request.getfixturevalue(language)
    shown = await refused_at_once(unmerged, "k")
    cli = gz("session", "kill", "c0ffee00", cwd=unmerged, env=env)
    assert (cli.exit_code, cli.stderr.splitlines()) == (1, shown)


def on_another_branch(repo: Path) -> None:
    subprocess.run(["git", "switch", "-qc", "elsewhere"], check=True,
                   cwd=worktree_for(find_project(repo), "c0ffee00"))


def in_direct_mode(repo: Path) -> None:
    from gzia.sessions.store import SessionStore

    SessionStore(find_project(repo)).update("c0ffee00", lambda r: setattr(r, "is_isolated", False))


@pytest.mark.parametrize("case", [on_another_branch, in_direct_mode])
@pytest.mark.parametrize("language", ["english", "spanish"])
async def test_a_pause_the_checks_refuse_is_refused_without_a_question(
        unmerged: Path, gz: Gz, case: object, language: str,
        request: pytest.FixtureRequest) -> None:
    """``session pause``'s refusals that come before any change (a worktree on another
    branch, a session in direct mode) are shown at once, in its words; nothing changes."""
    case(unmerged)  # type: ignore[operator]
    request.getfixturevalue(language)
    before = stored(unmerged, "c0ffee00")
    shown = await refused_at_once(unmerged, "P")
    assert stored(unmerged, "c0ffee00") == before
    cli = gz("session", "pause", "c0ffee00", cwd=unmerged,
             env={"GZ_LANG": "es"} if language == "spanish" else {})
    assert (cli.exit_code, cli.stderr.splitlines()) == (1, shown)


async def test_the_refused_deletes_way_out_in_spanish(unmerged: Path, spanish: None) -> None:
    app = make_app(unmerged)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press("d")
        first = await question(pilot, app, "the refusal and the offer")
        assert first.details[-1] == "Para conservar su trabajo: n y luego m la integra."
