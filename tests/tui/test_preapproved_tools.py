"""Sessions started or resumed from the terminal UI pre-approve gz-ia's read-only tools as
``gz-ia chat`` and ``gz-ia resume`` do: a supervised Claude Code gets the same
``--settings`` (``permissions.allow``), from the context the command line hands the TUI."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import TextArea

from gzia.cli.terminal_ui import tui_context
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from tests.background.conftest import wait_final
from tests.conftest import Result
from tests.run.conftest import claude_state_settings
from tests.run.test_chat_and_resume import FAKE_CLAUDE, calls
from tests.sessions.session_testkit import make_repo
from tests.tui.forms_kit import open_form, records, with_fake_agents
from tests.tui.test_app import quit_ui, read_until, ui_on_a_terminal


def settings_of(argv: list[str]) -> str:
    return argv[argv.index("--settings") + 1]


@pytest.mark.anyio
@pytest.mark.parametrize("background", [False, True])
async def test_a_supervised_claude_from_the_form_gets_chats_allow_list(
        tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch, background: bool) -> None:
    with_fake_agents(tmp_path / "bin", notes, monkeypatch)
    root = make_repo(tmp_path / "project")
    app = GzApp(tui_context(SessionStore(find_project(root))))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#prompt", TextArea).insert("fix the bug")
        app.screen.query_one("#permission-supervised").value = True
        app.screen.query_one("#background").value = background
        await pilot.press("ctrl+s")
        for _ in range(2):  # the start, then (in the background) the list's reload
            await app.workers.wait_for_complete()
            await pilot.pause()
        [record] = records(app)
    wait_final(root, str(record["id"]))
    argv = json.loads((notes / "argv").read_text())
    assert record["permission_level"] == "supervised"
    assert settings_of(argv) == claude_state_settings(root, str(record["id"]), prompt=True)[1]


def test_a_resume_from_the_ui_gets_resumes_allow_list(
        gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
        run_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    agent("claude", FAKE_CLAUDE)
    started = gz("--json", "chat", "-b", "-p", "claude", "-i", "fix the bug", cwd=repo)
    assert started.exit_code == 0, started.stderr
    session = started.json["data"]["id"]
    wait_final(repo, session)
    for name in ("PATH", "FAKE_NOTES"):  # the fake claude, for the UI's resume too
        monkeypatch.setenv(name, run_env[name])
    with ui_on_a_terminal(repo, "start") as terminal:
        read_until(terminal, b"Sessions: 1 of 1")
        os.write(terminal, b"\r")
        read_until(terminal, b"End reason")
        os.write(terminal, b"r")
        read_until(terminal, b"back in gz-ia.")
        quit_ui(terminal)
    first, resumed = (call["argv"] for call in calls(Path(run_env["FAKE_NOTES"])))
    assert "--resume" in resumed
    assert settings_of(resumed) == claude_state_settings(repo, session, prompt=False)[1]
    assert settings_of(first) == claude_state_settings(repo, session, prompt=True)[1]
