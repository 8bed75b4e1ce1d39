"""The terminal handed over and taken back, on a real PTY drawn by a terminal emulator:
Enter attaches to a background session that runs; when the TUI comes back it draws its
whole screen again (nothing of what the session printed is left on it), and when it quits
the shell's prompt starts on a fresh line."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.background.conftest import stored
from tests.tui.conftest import Gz, background
from tests.tui.pty_screen import PtyScreen

ENTER, CTRL_Q, DETACH = b"\r", b"\x11", b"\x1d"


def showing(*texts: str) -> object:
    return lambda lines: all(any(text in line for line in lines) for text in texts)


def not_showing(text: str) -> object:
    return lambda lines: not any(text in line for line in lines)


def start_tui(repo: Path, *, alternate: bool, **extra: str) -> PtyScreen:
    """``gz-ia start`` in ``repo`` on a 100x30 PTY, after a line the shell printed;
    ``extra`` in its environment."""
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", **extra)
    argv = ["sh", "-c", 'echo "$ an earlier line"; exec "$0" -m gzia start', sys.executable]
    return PtyScreen(argv, env=env, cwd=str(repo), size=(100, 30), alternate=alternate)


@pytest.fixture(params=[True, False], ids=["alternate-screen", "one-screen"])
def tui(repo: Path, request: pytest.FixtureRequest) -> Iterator[PtyScreen]:
    """As xterm draws it (an alternate screen) and as the Linux console does (none)."""
    screen = start_tui(repo, alternate=request.param)
    yield screen
    screen.close()


PARTIAL = 'echo ready; while IFS= read -r line; do printf "got:%s" "$line"; done'
"""Answers each line without ending its own: the cursor is left mid-line."""


def test_enter_attaches_a_running_background_session_and_the_tui_comes_back_whole(
        gz: Gz, repo: Path, tui: PtyScreen) -> None:
    session = background(gz, repo, PARTIAL)
    tui.wait_for(showing(session, "running", "Attach"), "the list, a in the footer", timeout=60)
    tui.type(ENTER)
    tui.wait_for(showing(f"[attached to session {session}: C-] detaches]"), "attached")
    assert not_showing("an earlier line")(tui.lines), tui.text()  # a clean screen
    assert not_showing("Attach")(tui.lines), tui.text()
    tui.type(b"hello\r")
    tui.wait_for(showing("got:hello"), "the session's answer")
    tui.type(DETACH)
    tui.wait_for(showing(session, "Attach", "+0/-0"), "the list and its footer again")
    assert not_showing("attached to session")(tui.lines), tui.text()  # drawn whole
    tui.type(CTRL_Q)
    assert tui.wait_exit() == 0
    assert tui.screen.cursor.x == 0, tui.text()  # the prompt will start a line of its own
    assert stored(repo, session)["status"] == "running"
    gz("session", "kill", session, cwd=repo)


def test_after_quit_no_frame_is_left_under_the_prompt(repo: Path, tui: PtyScreen) -> None:
    tui.wait_for(showing("Sessions: 0 of 0"), "the empty list", timeout=60)
    tui.type(CTRL_Q)
    assert tui.wait_exit() == 0
    assert tui.screen.cursor.x == 0
    below = tui.lines[tui.screen.cursor.y:]
    assert all(not line.strip() for line in below), tui.text()


SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def border_colour(screen: PtyScreen, label: str) -> str:
    """The colour of the left border of the field labelled ``label`` (focus changes it)."""
    row = next(y for y, line in enumerate(screen.lines) if line.startswith(f" {label} "))
    column = screen.lines[row].index("▊")
    return str(screen.screen.buffer[row][column].fg)


def test_a_foreground_command_from_the_form_gets_a_clean_screen_and_a_fresh_line_after(
        repo: Path, tmp_path: Path) -> None:
    """The form's command (the shell highlighted) runs in the foreground on a cleared
    screen; it ends mid-line, and after quitting the prompt still starts a line."""
    tui = start_tui(repo, alternate=True, PATH=SYSTEM_PATH, SHELL="/bin/sh",
                    HOME=str(tmp_path))
    try:
        tui.wait_for(showing("Sessions: 0 of 0"), "the empty list", timeout=60)
        tui.type(b"n")
        tui.wait_for(showing("Shell (shell) — ready to use", "Found at"), "the form")
        tui.wait_for(showing("Command"), "the shell highlighted: a command, not a prompt")
        blurred = border_colour(tui, "Command")
        tui.type(b"\t\t\t")  # Permission, Sandbox, then the command
        tui.wait_for(lambda _: border_colour(tui, "Command") != blurred, "the command focused")
        tui.type(b"printf ran-in-the-foreground")
        tui.wait_for(showing("printf ran-in-the-foreground"), "the command typed")
        tui.type(b"\x13")  # Ctrl+S
        tui.wait_for(showing("finished successfully", "Merge: m"), "the outcome, as keys")
        assert b"ran-in-the-foreground" in tui.raw
        tui.type(ENTER)
        tui.wait_for(showing("completed", "Attach"), "the list with the session")
        tui.type(CTRL_Q)
        assert tui.wait_exit() == 0
        assert tui.screen.cursor.x == 0, tui.text()
    finally:
        tui.close()
