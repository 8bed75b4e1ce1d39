"""``gz-ia start`` from the built zipapp on a real PTY, drawn by a terminal emulator (pyte):
it shows the project's sessions, answers keys, hands the terminal to a foreground agent
(Ctrl+C reaches the agent, not gz-ia) and leaves the terminal as it found it."""

from __future__ import annotations

import os
import re
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.sessions.project import find_project
from tests.run.credentials_kit import READ_ANCESTORS, SECRETS, parent_environment
from tests.sessions.session_testkit import make_repo, make_session
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import write_agent
from tests.tui.pty_screen import Lines, PtyScreen

__all__ = ["notes"]

CTRL_Q, ESCAPE, ENTER, CTRL_C, CTRL_S = b"\x11", b"\x1b", b"\r", b"\x03", b"\x13"
UP, DOWN = b"\x1b[A", b"\x1b[B"
ALT_SCREEN_ON, ALT_SCREEN_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
CURSOR_HIDDEN, CURSOR_SHOWN = b"\x1b[?25l", b"\x1b[?25h"

AGENT = """
def interrupted(signum, frame):
    os.write(1, b"agent got SIGINT\\n")  # not print(): Ctrl+C may come while a print flushes
    note("sigint", 1)
    sys.exit(0)

signal.signal(signal.SIGINT, interrupted)
note("tty", os.ttyname(0))
print("agent has the terminal", flush=True)
line = sys.stdin.readline()
print("agent read " + line.strip(), flush=True)
"""
"""A fake interactive shell: says it has the terminal, then ends on a line or on Ctrl+C."""


def showing(*texts: str) -> object:
    return lambda lines: all(any(text in line for line in lines) for text in texts)


def not_showing(text: str) -> object:
    return lambda lines: not any(text in line for line in lines)


SESSION_ROW = re.compile(r" [0-9a-f]{8}  ")


def session_rows(lines: Lines) -> Lines:
    return [line for line in lines if SESSION_ROW.match(line)]


def row_background(lines_of: PtyScreen, text: str) -> str:
    """The background colour pyte drew under the row holding ``text``."""
    row = next(y for y, line in enumerate(lines_of.lines) if text in line)
    column = lines_of.lines[row].index(text)
    return str(lines_of.screen.buffer[row][column].bg)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "project")
    found = find_project(root)
    make_session(found, "aaaa1111", started_at="2026-03-01T10:00:00Z")
    make_session(found, "bbbb2222", status="failed", started_at="2026-03-01T11:00:00Z")
    return root


def start_screen(pyz: Path, project: Path, shell: Path, notes: Path, **extra: str) -> PtyScreen:
    """``gz-ia start`` on a PTY, with ``shell`` as the shell agent and ``extra`` in its
    environment."""
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", SHELL=str(shell), FAKE_NOTES=str(notes), **extra)
    return PtyScreen([sys.executable, str(pyz), "start", "-d", str(project)], env=env)


@pytest.fixture
def terminal(pyz: Path, project: Path, tmp_path: Path, notes: Path) -> Iterator[PtyScreen]:
    screen = start_screen(pyz, project, write_agent(tmp_path / "fake-shell", AGENT), notes)
    yield screen
    screen.close()


def highlight_agy(screen: PtyScreen) -> None:
    """On the form, the first agent: agy, not installed here. The shell is highlighted
    first, so a wait for the shell after moving proves nothing until the cursor has left."""
    screen.wait_for(showing("Shell (shell) — ready to use"), "the agents")
    screen.type(UP * 4)
    screen.wait_for(showing("Install: curl -fsSL"), "agy highlighted")


def quit_from_the_list(screen: PtyScreen) -> None:
    """Back on the list, Ctrl+Q: gz-ia ends well and the terminal is as it was."""
    screen.wait_for(showing("aaaa1111", "bbbb2222"), "the list again")
    screen.type(CTRL_Q)
    assert screen.wait_exit() == 0
    assert_terminal_restored(screen)


def assert_terminal_restored(screen: PtyScreen) -> None:
    raw = screen.raw
    assert raw.rfind(ALT_SCREEN_OFF) > raw.rfind(ALT_SCREEN_ON) > -1
    assert raw.rfind(CURSOR_SHOWN) > raw.rfind(CURSOR_HIDDEN) > -1
    assert not screen.screen.cursor.hidden
    assert screen.attrs() == screen.attrs_before  # echo, canonical mode... as they were


@pytest.mark.pyz
def test_start_lists_sessions_answers_keys_and_restores_the_terminal(
        terminal: PtyScreen) -> None:
    terminal.wait_for(showing("aaaa1111", "bbbb2222"), "the session list", timeout=60)
    terminal.wait_for(lambda _: row_background(terminal, "aaaa1111")
                      != row_background(terminal, "bbbb2222"), "the cursor drawn")
    # the ahead/behind counts arrive after the rows: the list is complete once both have them
    terminal.wait_for(lambda lines: sum(line.count("+0/-0") for line in lines) == 2,
                      "the rows' ahead/behind counts")
    first = row_background(terminal, "bbbb2222")  # newest first: the cursor is on it
    terminal.type(DOWN)
    terminal.wait_for(lambda _: row_background(terminal, "aaaa1111") == first,
                      "the cursor on the second session")
    terminal.type(b"n")
    terminal.wait_for(showing("New session", "Shell (shell) — ready to use"), "the form")
    terminal.type(ESCAPE)
    quit_from_the_list(terminal)


@pytest.mark.pyz
@pytest.mark.parametrize(("keys", "said"), [(b"done\r", "agent read done"),
                                            (CTRL_C, "agent got SIGINT")])
def test_a_foreground_agent_gets_the_terminal_then_the_tui_comes_back(
        terminal: PtyScreen, notes: Path, keys: bytes, said: str) -> None:
    terminal.wait_for(showing("aaaa1111"), "the session list", timeout=60)
    terminal.type(b"n")
    highlight_agy(terminal)
    terminal.type(DOWN * 4 + CTRL_S)  # the shell, the last agent: Ctrl+S waits for the arrows
    terminal.wait_for(showing("agent has the terminal"), "the agent on the terminal")
    assert (notes / "tty").read_text() == os.ttyname(terminal.slave)
    wait_until_the_agent_reads_the_terminal(terminal, int((notes / "agent.pid").read_text()))
    terminal.type(keys)
    terminal.wait_for(showing("finished successfully"), "the outcome")
    assert said.encode() in terminal.raw
    terminal.type(ENTER)
    terminal.wait_for(lambda lines: len(session_rows(lines)) == 3, "the new session listed")
    [new_row] = [row for row in session_rows(terminal.lines)
                 if "aaaa1111" not in row and "bbbb2222" not in row]
    assert " completed " in new_row
    terminal.type(CTRL_Q)
    assert terminal.wait_exit() == 0  # Ctrl+C reached the agent, not gz-ia
    assert_terminal_restored(terminal)


def wait_until_the_agent_reads_the_terminal(terminal: PtyScreen, pid: int,
                                            timeout: float = 30.0) -> None:
    """The agent's process group is the terminal's foreground one, and the terminal reads
    lines and turns Ctrl+C into SIGINT (the TUI's raw mode is gone): keys typed now reach
    the agent as a person's would. Drawing goes on meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        process_group, foreground_group = int(fields[2]), int(fields[5])
        local_modes = termios.tcgetattr(terminal.slave)[3]
        if process_group == foreground_group and local_modes & termios.ISIG \
                and local_modes & termios.ICANON:
            return
        assert time.monotonic() < deadline, f"the agent never got the terminal:\n{terminal.text()}"
        terminal.read(0.05)


@pytest.mark.pyz
def test_no_process_above_an_agent_the_tui_starts_holds_a_credential(
        pyz: Path, project: Path, tmp_path: Path, notes: Path) -> None:
    shell = write_agent(tmp_path / "fake-shell", READ_ANCESTORS + AGENT)
    screen = start_screen(pyz, project, shell, notes, **SECRETS)
    try:
        screen.wait_for(showing("aaaa1111"), "the session list", timeout=60)
        screen.type(b"n")
        highlight_agy(screen)
        screen.type(DOWN * 4 + CTRL_S)
        screen.wait_for(showing("agent has the terminal"), "the agent on the terminal")
        parent_environment(notes, parent="gz-ia.pyz\0start")  # the TUI, read and clean
        screen.type(b"done\r")
        screen.wait_for(showing("finished successfully"), "the outcome")
        screen.type(ENTER)
        quit_from_the_list(screen)
    finally:
        screen.close()


@pytest.mark.pyz
def test_a_foreground_start_that_fails_gives_the_tui_back(terminal: PtyScreen) -> None:
    """The start fails once the terminal is handed over (agy is not installed): the TUI
    comes back, says why in the CLI's words, and answers keys."""
    terminal.wait_for(showing("aaaa1111"), "the session list", timeout=60)
    terminal.type(b"n")
    highlight_agy(terminal)
    terminal.type(CTRL_S)
    terminal.wait_for(showing("Error: agent 'Google Antigravity (agy)' is not"),
                      "the CLI's error on the form")
    terminal.type(ESCAPE)
    quit_from_the_list(terminal)


@pytest.mark.pyz
def test_an_attach_that_fails_gives_the_tui_back(terminal: PtyScreen) -> None:
    """Attach to a session that has ended: the TUI comes back and shows the error."""
    terminal.wait_for(lambda lines: sum(line.count("+0/-0") for line in lines) == 2,
                      "the session list, complete", timeout=60)
    terminal.type(b"a")  # the cursor's session, bbbb2222, has failed
    error = "Error: session 'bbbb2222' has finished (failed): there is nothing to attach to"
    terminal.wait_for(showing(error), "the CLI's error")
    terminal.type(ENTER)
    quit_from_the_list(terminal)


@pytest.mark.pyz
def test_the_first_frame_with_the_footer_already_has_the_rows(terminal: PtyScreen) -> None:
    """Textual drops the frame drawn during its start-up batch; the home screen reads the
    store after it, so the first frame shown is whole (rows read before were drawn one
    frame after the footer: bench/tui.py)."""
    terminal.wait_for(lambda lines: "Quit" in lines[-1], "the footer", timeout=60)
    assert {line.split()[0] for line in session_rows(terminal.lines)} == {"aaaa1111",
                                                                          "bbbb2222"}
    terminal.type(CTRL_Q)
    assert terminal.wait_exit() == 0
