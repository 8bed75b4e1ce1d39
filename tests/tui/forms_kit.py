"""What the new-session and update screens' tests share: a project with fake agents on
PATH, the real app on it, and the text a screen shows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.context import TuiContext
from tests.sessions.session_testkit import make_repo
from tests.supervisor.fakes import write_agent

CLAUDE = """
import json
if sys.argv[1:] == ["--version"]:
    print("2.1.0 (Claude Code)")
    sys.exit(0)
note("argv", json.dumps(sys.argv[1:]))
note("cwd", os.getcwd())
sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
"""
"""A fake ``claude``: reports version 2.1.0, notes its arguments and directory, exits
with ``$FAKE_EXIT``."""

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def agents_path(bin_dir: Path) -> str:
    """PATH with the test's fake agents and the system's tools (git), nothing else."""
    return f"{bin_dir}{os.pathsep}{SYSTEM_PATH}"


def install_claude(bin_dir: Path) -> Path:
    return write_agent(bin_dir / "claude", CLAUDE)


def project_app(root: Path) -> GzApp:
    """The TUI of a new git repository at ``root`` (one commit)."""
    project = find_project(make_repo(root))
    return GzApp(TuiContext(SessionStore(project), clock=lambda: 1_780_000_000.0))


def shown(app: App[None], selector: str) -> str:
    """The text of the Static ``selector`` on the current screen."""
    return str(app.screen.query_one(selector, Static).render())


def notice(app: App[None]) -> tuple[str, str]:
    """The title and the lines of the dialog on top (a report, or an error and its hint)."""
    assert type(app.screen).__name__ == "NoticeScreen"
    return (shown(app, ".dialog-title"), shown(app, ".dialog-body Static"))


def option_texts(app: App[None], selector: str) -> list[str]:
    listing = app.screen.query_one(selector, OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def with_fake_agents(directory: Path, notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PATH: a fake claude in ``directory`` and the system's tools; the shell is /bin/sh."""
    directory.mkdir()
    install_claude(directory)
    monkeypatch.setenv("PATH", agents_path(directory))
    monkeypatch.setenv("FAKE_NOTES", str(notes))
    monkeypatch.setenv("SHELL", "/bin/sh")


async def open_form(pilot: Pilot[None], app: GzApp) -> None:
    """``n`` once the home screen has settled; back once the agents are listed."""
    await app.workers.wait_for_complete()
    await pilot.press("n")
    await app.workers.wait_for_complete()
    await pilot.pause()


def records(app: GzApp) -> list[dict[str, object]]:
    """The project's records as stored, oldest id first."""
    folder = app.tui_context.store.project.root / ".harness" / "sessions"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
