"""The new-session form, driven by Textual's pilot against a real git repository: agents as
``gz-ia drivers`` sees them, profiles, and real starts in the foreground and background."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Checkbox, OptionList, TextArea

from gzia.i18n import ngettext, set_language
from gzia.profiles.catalog import create_profile, locations
from gzia.tui.app import GzApp
from gzia.tui.screens.sessions import SessionsScreen
from tests.background.conftest import wait_final
from tests.supervisor.conftest import notes
from tests.tui.forms_kit import (
    agents_path,
    install_claude,
    notice,
    open_form,
    option_texts,
    project_app,
    records,
    shown,
)

__all__ = ["notes"]

ROWS = {
    "en": ["[✗] Google Antigravity (agy) — not installed (not found on PATH)",
           "[✓] Claude Code (claude) — ready to use (2.1.0)",
           "[✗] OpenCode (opencode) — not installed (not found on PATH)",
           "[✗] Pi Agent (pi-agent) — not installed (not found on PATH)",
           "[✓] Shell (shell) — ready to use"],
    "es": ["[✗] Google Antigravity (agy) — No instalado (no encontrado en PATH)",
           "[✓] Claude Code (claude) — Listo para usar (2.1.0)",
           "[✗] OpenCode (opencode) — No instalado (no encontrado en PATH)",
           "[✗] Pi Agent (pi-agent) — No instalado (no encontrado en PATH)",
           "[✓] Shell (shell) — Listo para usar"],
}


@pytest.fixture
def bin_dir(tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", agents_path(directory))
    monkeypatch.setenv("FAKE_NOTES", str(notes))
    monkeypatch.setenv("SHELL", "/bin/sh")
    return directory


@pytest.fixture
def app(tmp_path: Path, bin_dir: Path) -> GzApp:
    install_claude(bin_dir)
    return project_app(tmp_path / "project")


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_agents_are_listed_as_gz_ia_drivers_sees_them(app: GzApp, bin_dir: Path,
                                                            lang: str) -> None:
    set_language(lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        assert type(app.screen).__name__ == "NewSessionScreen"
        assert option_texts(app, "#agents") == ROWS[lang]
        found = {"en": "Found at", "es": "Encontrado en"}[lang]
        assert shown(app, "#agent-detail") == f"{found} {bin_dir / 'claude'}"
        await pilot.press("down")  # OpenCode: missing, with the driver's install hint
        install = {"en": "Install", "es": "Instalación"}[lang]
        assert shown(app, "#agent-detail") == (
            f"{install}: curl -fsSL https://opencode.ai/install | bash")
        assert not app.screen.query("#profiles")  # no profile exists: no profile list


@pytest.mark.anyio
async def test_a_foreground_start_runs_the_agent_and_shows_the_outcome(
        app: GzApp, notes: Path) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#prompt", TextArea).insert("fix the tests\nthen lint")
        app.screen.query_one("#permission-autonomous").value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        [record] = records(app)
        session_id = record["id"]
        assert notice(app) == (
            f"Session {session_id}",
            f"✓ Session '{session_id}' finished successfully.\n"
            "Review: Enter, then 2 (its diff)   Merge: m")  # keys here, not commands
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert type(app.screen).__name__ == "SessionsScreen"
        table = app.screen.query_one("#sessions")
        assert [key.value for key in table.rows] == [session_id]  # type: ignore[attr-defined]
    assert (record["provider"], record["status"], record["permission_level"],
            record["initial_prompt"], record["mode"]) == (
        "claude", "completed", "autonomous", "fix the tests\nthen lint", "chat")
    argv = json.loads((notes / "argv").read_text())
    assert argv[0] == "--dangerously-skip-permissions"
    assert argv[-2:] == ["--", "fix the tests\nthen lint"]
    assert (notes / "cwd").read_text() == record["worktree_dir"]


@pytest.mark.anyio
@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Error: the agent of session '{id}' exited with code 3\n"
           "see it with: gz-ia session show {id}"),
    ("es", "Error: el agente de la sesión '{id}' terminó con código 3\n"
           "consúltala con: gz-ia session show {id}"),
])
async def test_an_agent_that_fails_shows_the_clis_error_and_hint(
        app: GzApp, monkeypatch: pytest.MonkeyPatch, lang: str, expected: str) -> None:
    monkeypatch.setenv("FAKE_EXIT", "3")
    set_language(lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        [record] = records(app)
        assert record["status"] == "failed"
        assert notice(app) == ("Error (AGENT_FAILED)", expected.format(id=record["id"]))


@pytest.mark.anyio
@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Error: agent 'OpenCode (opencode)' is not available on PATH.\n"
           "Install: curl -fsSL https://opencode.ai/install | bash"),
    ("es", "Error: el agente 'OpenCode (opencode)' no está disponible en el PATH.\n"
           "Instalación: curl -fsSL https://opencode.ai/install | bash"),
])
async def test_starting_a_missing_agent_says_how_to_install_it(app: GzApp, lang: str,
                                                               expected: str) -> None:
    set_language(lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#agents", OptionList).highlighted = 2
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewSessionScreen"
        assert shown(app, "#problem") == expected
    assert records(app) == []


@pytest.mark.anyio
async def test_the_shell_takes_a_command_not_a_prompt(app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        prompt = app.screen.query_one("#prompt", TextArea)
        assert (shown(app, "#prompt-label"), prompt.disabled) == ("Prompt", False)
        app.screen.query_one("#agents", OptionList).highlighted = 4
        await pilot.pause()
        assert (shown(app, "#prompt-label"), prompt.disabled) == ("Command", False)
        assert prompt.placeholder == ("The command to run, e.g. make test (empty: Shell (shell) "
                                      "opens $SHELL)")


@pytest.mark.anyio
async def test_profiles_are_offered_when_they_exist_and_reach_the_session(
        app: GzApp) -> None:
    project = app.tui_context.store.project
    for name in ("backend", "docs"):
        create_profile(locations(project.root), name, f"{name} work", global_scope=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        ticks = list(app.screen.query("#profiles Checkbox").results(Checkbox))
        assert [(str(tick.label), tick.value) for tick in ticks] == [
            ("backend", False), ("docs", False)]
        ticks[1].value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
    [record] = records(app)
    assert record["profiles"] == ["docs"]


@pytest.mark.anyio
async def test_a_background_start_returns_at_once_and_lists_the_session(
        app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#background").value = True
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert type(app.screen).__name__ == "SessionsScreen"
        [record] = records(app)
        table = app.screen.query_one("#sessions")
        assert [key.value for key in table.rows] == [record["id"]]  # type: ignore[attr-defined]
    assert record["holder"]
    final = wait_final(app.tui_context.store.project.root, str(record["id"]))
    assert final["status"] == "completed"


async def start_in_background(pilot: object, app: GzApp) -> None:
    await open_form(pilot, app)
    app.screen.query_one("#background").value = True
    await pilot.press("ctrl+s")  # type: ignore[attr-defined]
    for _ in range(2):  # the start, then the list's reload
        await app.workers.wait_for_complete()
        await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_background_start_puts_the_cursor_on_it_and_shows_chats_warnings(
        app: GzApp, lang: str) -> None:
    """chat -b prints its launch warnings; the TUI shows them, in the same words."""
    set_language(lang)
    root = app.tui_context.store.project.root
    async with app.run_test(size=(100, 30)) as pilot:
        await start_in_background(pilot, app)
        [first] = records(app)
        assert not app._notifications
        (root / "draft.txt").write_text("not committed\n")
        await start_in_background(pilot, app)
        second = next(r for r in records(app) if r["id"] != first["id"])
        home = app.screen
        assert isinstance(home, SessionsScreen)
        assert [r.id for r in home.records] == [second["id"], first["id"]]
        selected = home.current()
        assert selected is not None and selected.id == second["id"]
        [warning] = list(app._notifications)
    commit = str(second["base_commit"])[:12]
    assert (warning.severity, warning.message) == ("warning", ngettext(
            "{count} uncommitted change in {base} is not in the session: it starts from the last "
            "commit ({commit}); commit it first to include it",
            "{count} uncommitted changes in {base} are not in the session: it starts from the last "
            "commit ({commit}); commit them first to include them",
            1, base=str(root), commit=commit))
    for record in (first, second):
        wait_final(root, str(record["id"]))


@pytest.mark.anyio
async def test_n_and_u_open_their_screens_from_the_home_screen_only(app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        form = app.screen
        app.screen.query_one("#agents", OptionList).focus()
        await pilot.press("n", "u")  # the agent list has the focus: no second form, no update
        await pilot.pause()
        assert app.screen is form
        stack = [type(screen).__name__ for screen in app.screen_stack]
        assert stack[-2:] == ["SessionsScreen", "NewSessionScreen"]


@pytest.mark.anyio
async def test_the_base_field_is_what_the_session_branches_from(app: GzApp) -> None:
    """The form's Base is ``--base``: the session starts from that branch, and a base that
    does not exist is the command line's error, on the form, with nothing started."""
    from textual.widgets import Input

    from tests.sessions.session_testkit import commit_file, run_git

    root = app.tui_context.store.project.root
    run_git(root, "switch", "-q", "-c", "feature")
    commit_file(root, "feature.txt", "x\n", "feature")
    feature = run_git(root, "rev-parse", "HEAD").strip()
    run_git(root, "switch", "-q", "main")
    async with app.run_test(size=(100, 40)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#base", Input).value = "nope"
        app.screen.query_one("#background").value = True
        await pilot.press("ctrl+s")
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert records(app) == []
        assert "base 'nope' is not a branch, tag or commit" in shown(app, "#problem")
        app.screen.query_one("#base", Input).value = "feature"
        await pilot.press("ctrl+s")
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        [record] = records(app)
    assert (record["base_branch"], record["base_commit"]) == ("feature", feature)
    wait_final(root, str(record["id"]))
