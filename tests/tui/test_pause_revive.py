"""``P`` pauses the selected session (asked first) as ``gz-ia session pause`` does: its
uncommitted work committed on its branch, its worktree removed, its status ``paused``;
``v`` revives a paused one as ``gz-ia session revive -b`` does: the worktree back, the
conversation resumed in the background while the TUI keeps the terminal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from gzia.tui.app import GzApp
from gzia.tui.screens.confirm import ConfirmScreen
from gzia.tui.screens.detail import DetailScreen
from gzia.tui.screens.sessions import SessionsScreen
from tests.run.conftest import git, stored_record
from tests.run.test_chat_and_resume import calls
from tests.run.test_pause_revive import AGENT_WORK, EDITING_CLAUDE, branch_files
from tests.tui.conftest import Gz, until
from tests.tui.test_rename import home, notices

pytestmark = [pytest.mark.anyio]


@pytest.fixture
def finished(gz: Gz, repo: Path, agent: Callable[[str, str], Path], run_env: dict[str, str],
             monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A completed session whose agent left its edits uncommitted in the worktree; the
    fake agent on this process's PATH too (the revive starts it from here)."""
    (repo / "gone.txt").write_text("to be deleted\n")
    git(repo, "add", "gone.txt")
    git(repo, "commit", "-qm", "a file the agent deletes")
    agent("claude", EDITING_CLAUDE)
    for name in ("PATH", "FAKE_NOTES"):
        monkeypatch.setenv(name, run_env[name])
    result = gz("--json", "chat", "-p", "claude", "-i", "edit things", cwd=repo)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = result.json["data"]
    return data


def status_of(repo: Path, session_id: str) -> str:
    return str(stored_record(repo, session_id)["status"])


async def pause_asked(app: GzApp, pilot: Pilot[None]) -> str:
    """Press ``P``: the question asked."""
    await pilot.press("P")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
    assert isinstance(app.screen, ConfirmScreen)
    return app.screen.question


async def test_p_pauses_with_the_work_on_the_branch_and_v_revives_in_the_background(
        finished: dict[str, Any], repo: Path, notes: Path, english: None) -> None:
    sid, worktree = finished["id"], Path(finished["worktree_dir"])
    async with home(repo) as (app, pilot):
        assert await pause_asked(app, pilot) == (
            f"Pause session '{sid}'? Its agent is stopped if it runs, its uncommitted work is "
            "committed on its branch and its worktree is removed.")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "no pause")
        assert status_of(repo, sid) == "completed" and worktree.exists()

        await pause_asked(app, pilot)
        await pilot.press("y")
        await until(pilot, lambda: status_of(repo, sid) == "paused", "the pause")
        await until(pilot, lambda: any(n.startswith(f"✓ Session '{sid}' paused: its work is "
                                                    f"committed on harness/{sid}")
                                       for n in notices(app)), "the CLI's line")
        # its next step is the TUI's key, not a command to type elsewhere
        assert notices(app)[-1].endswith("its worktree was removed; bring it back with v")
        assert not worktree.exists()
        assert branch_files(repo, sid) == AGENT_WORK
        assert git(repo, "log", "-1", "--format=%s", f"harness/{sid}") == f"harness({sid}): paused"

        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen)
                    and app.screen.current() is not None, "the detail screen")
        await pilot.press("v")
        await until(pilot, lambda: len(calls(notes)) == 2, "the agent resumed", timeout=60)
        await until(pilot, lambda: f"● Session '{sid}' is running in the background"
                    in " ".join(notices(app)), "the revive's line", timeout=60)
        await until(pilot, lambda: status_of(repo, sid) == "completed", "the resumed turn",
                    timeout=60)
    assert calls(notes)[1]["cwd"] == str(worktree)
    assert calls(notes)[1]["argv"][-2:] == ["--resume", finished["conversation_id"]]
    assert (worktree / "src" / "new.py").read_text() == "print('new')\n"
    assert git(worktree, "status", "--porcelain") == ""


async def test_the_pause_in_spanish(finished: dict[str, Any], repo: Path,
                                    spanish: None) -> None:
    sid = finished["id"]
    async with home(repo) as (app, pilot):
        assert await pause_asked(app, pilot) == (
            f"¿Pausar la sesión '{sid}'? Su agente se detiene si corre, su trabajo sin confirmar "
            "se confirma en su rama y se elimina su worktree.")
        await pilot.press("y")
        await until(pilot, lambda: any(n.startswith(f"✓ Sesión '{sid}' pausada: su trabajo está "
                                                    f"confirmado en harness/{sid}")
                                       for n in notices(app)), "the line in Spanish")
        assert notices(app)[-1].endswith("se eliminó su worktree; recupérala con v")
        await pilot.press("v")
        await until(pilot, lambda: f"● La sesión '{sid}' se ejecuta en segundo plano"
                    in " ".join(notices(app)), "the revive's line in Spanish", timeout=60)
        await until(pilot, lambda: status_of(repo, sid) == "completed", "the resumed turn",
                    timeout=60)
