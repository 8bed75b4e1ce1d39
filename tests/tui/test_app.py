"""The app around the screens: gz-ia start and bare gz-ia, the command palette, the
language, NO_COLOR, and errors worded as the command line words them."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable

from gzia.sessions.project import find_project
from gzia.sessions.workspace import worktree_for
from gzia.tui.app import GzApp
from gzia.tui.screens.confirm import ConfirmScreen
from tests.background.conftest import stored
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_repo, make_session
from tests.tui.conftest import Gz, background, make_app, until

SPANISH = {"GZ_LANG": "es"}


@pytest.fixture
def unmerged(tmp_path: Path) -> tuple[Path, str]:
    """A finished session with a commit its base does not have."""
    repo = make_repo(tmp_path / "repo")
    project = find_project(repo)
    make_session(project, "c0ffee00", started_at="2026-03-01T11:00:00Z")
    commit_file(worktree_for(project, "c0ffee00"), "work.txt", "work\n", "work")
    return repo, "c0ffee00"


def rows(app: GzApp) -> int:
    return app.screen.query_one("#sessions", DataTable).row_count


@pytest.mark.anyio
@pytest.mark.parametrize(("language", "env"), [("english", {}), ("spanish", SPANISH)])
async def test_a_refusal_is_worded_as_the_cli_words_it(
    unmerged: tuple[Path, str], gz: Gz, language: str, env: dict[str, str],
    request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue(language)
    repo, session = unmerged
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press("d")  # delete's checks first: its refusal, and the forced delete
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the refusal")
        assert isinstance(app.screen, ConfirmScreen)
        shown = app.screen.details
        await pilot.press("n")
    cli: Result = gz("session", "delete", session, cwd=repo, env=env)
    assert (cli.exit_code, cli.stderr.splitlines()) == (1, shown[:-1])  # then the TUI's keys
    assert (repo / ".harness" / "sessions" / f"{session}.json").exists()


@pytest.mark.anyio
async def test_the_palette_lists_the_screens_actions_in_spanish(
    unmerged: tuple[Path, str], spanish: None
) -> None:
    repo, session = unmerged
    app = make_app(repo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Borrar")
        await until(pilot, lambda: app.screen.query("CommandList Option").results() is not None
                    and "d" in str(app.screen.query_one("CommandList").get_option_at_index(0)
                                   .prompt), "the hit")
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == (  # its work was never merged: delete would refuse
            f"¿Eliminar la sesión '{session}' de todos modos, como hace --force?")


@pytest.mark.anyio
@pytest.mark.parametrize("no_color", [True, False])
async def test_no_color_is_respected(unmerged: tuple[Path, str], no_color: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = make_app(unmerged[0])
    async with app.run_test(size=(80, 24)):
        assert app.no_color is no_color


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "Error: gz-ia start needs a terminal on stdin and stdout\n"
         "run it in a terminal; scripts use 'gz-ia session list --json'\n"),
    (SPANISH, "Error: gz-ia start necesita una terminal en stdin y stdout\n"
              "ejecútalo en una terminal; los scripts usan 'gz-ia session list --json'\n"),
])
def test_start_off_a_terminal_is_refused(gz: Gz, repo: Path, env: dict[str, str],
                                         expected: str) -> None:
    result = gz("start", cwd=repo, env=env)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected)


def test_bare_gz_ia_off_a_terminal_prints_the_help(gz: Gz, repo: Path) -> None:
    result = gz(cwd=repo)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: gz-ia [OPTIONS] COMMAND [ARGS]...")


@contextlib.contextmanager
def ui_on_a_terminal(repo: Path, *args: str) -> Iterator[int]:
    """``gz-ia ARGS`` on a real 100x30 terminal; yields the terminal's other side. On the
    way out it must have quit by itself with exit 0 (after Ctrl+Q, say)."""
    primary, secondary = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    gz_ia = subprocess.Popen([sys.executable, "-m", "gzia", *args], cwd=repo, env=env,
                             stdin=secondary, stdout=secondary, stderr=secondary,
                             start_new_session=True)
    try:
        os.close(secondary)
        yield primary
        assert gz_ia.wait(timeout=30) == 0
    finally:
        gz_ia.kill()
        gz_ia.wait()
        os.close(primary)


def quit_ui(terminal: int) -> bytes:
    """Ctrl+Q, then what the terminal received until the program closed it."""
    os.write(terminal, b"\x11")
    return read_until(terminal, None)


def test_bare_gz_ia_on_a_terminal_opens_the_ui_and_quits_cleanly(repo: Path) -> None:
    with ui_on_a_terminal(repo) as terminal:
        seen = read_until(terminal, b"Sessions: 0 of 0")
        assert b"\x1b[?1049h" in seen  # the alternate screen: the UI took the terminal
        assert b"\x1b[?1049l" in quit_ui(terminal)  # and gave it back


def read_until(fd: int, needle: bytes | None, *more: bytes, timeout: float = 30.0) -> bytes:
    """What the terminal received until ``needle`` and every one of ``more`` have come, in
    one read (None: until the program closed it). Two things awaited one after the other
    may arrive in one chunk: wait for them together."""
    received, deadline = b"", time.monotonic() + timeout
    while needle is None or not all(n in received for n in (needle, *more)):
        assert time.monotonic() < deadline, (needle, more, screen_of(received))
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the program ended and closed the terminal
            chunk = b""
        if not chunk:
            if needle is None:
                return received
            raise AssertionError(needle, screen_of(received))
        received += chunk
    return received



ECHO_LINES = 'echo ready; while IFS= read -r line; do printf "got:%s\\n" "$line"; done'


def test_attach_hands_the_terminal_over_and_comes_back(gz: Gz, repo: Path) -> None:
    session = background(gz, repo, ECHO_LINES)
    with ui_on_a_terminal(repo, "start") as terminal:
        # the list, and the session's output in the preview: the session is the current one
        read_until(terminal, b"Sessions: 1 of 1", b"ready")
        os.write(terminal, b"a")
        read_until(terminal, f"[attached to session {session}: C-] detaches]".encode())
        os.write(terminal, b"hello\r")
        read_until(terminal, b"got:hello")  # typed into the session, answered by it
        os.write(terminal, b"\x1d")  # Ctrl-]: detach
        # the UI takes the terminal back and says so (in a toast: wrapped)
        back = read_until(terminal, b"\x1b[?1049h", b"running]")
        assert f"[detached from session {session}: it keeps" in screen_of(back)
        quit_ui(terminal)
    assert stored(repo, session)["status"] == "running"
    gz("session", "kill", session, cwd=repo)


def test_resume_gives_the_agent_the_terminal_and_comes_back(gz: Gz, repo: Path) -> None:
    first = gz("--json", "exec", "--", "sh", "-c", "echo run-$$", cwd=repo)
    session = first.json["data"]["id"]
    with ui_on_a_terminal(repo, "start") as terminal:
        read_until(terminal, b"Sessions: 1 of 1")
        os.write(terminal, b"\r")
        read_until(terminal, b"End reason")  # the detail screen, its record read
        os.write(terminal, b"r")
        ran = read_until(terminal, b"run-")  # the session's command, on this terminal
        assert b"\x1b[?1049l" in ran  # after the UI gave the terminal up
        back = read_until(terminal, b"back in gz-ia.")
        assert f"Session '{session}' ended; back in gz-ia." in screen_of(back)
        quit_ui(terminal)
    assert stored(repo, session)["pid"] != first.json["data"]["pid"]  # it ran again


def screen_of(received: bytes, size: tuple[int, int] = (100, 30)) -> str:
    """The terminal's screen after ``received``, as text (for failure messages)."""
    import pyte

    screen = pyte.Screen(*size)
    pyte.ByteStream(screen).feed(received)
    return "\n".join(line.rstrip() for line in screen.display)


@pytest.mark.anyio
async def test_record_fields_are_shown_as_written_not_as_markup(
    tmp_path: Path, english: None
) -> None:
    repo = make_repo(tmp_path / "repo")
    make_session(find_project(repo), "b0b0b0b0", labels={"x": "[bold]y[/bold]"})
    app = make_app(repo)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: rows(app) == 1, "the session in the list")
        table = app.screen.query_one("#sessions", DataTable)
        assert str(table.get_row("b0b0b0b0")[6]) == "x=[bold]y[/bold]"
        assert table.get_row("b0b0b0b0")[6].spans == []
