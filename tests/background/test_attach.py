"""session attach driven through real PTYs: relay, window size, detach, two attachers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gzia.supervisor.terminal import set_window_size
from tests.background.conftest import start_background, stored, wait_final, wait_until
from tests.background.test_terminal_queries import ASKS_ITS_TERMINAL, log_of
from tests.conftest import Result
from tests.supervisor.terminal_session import TerminalSession

ECHO_OR_SIZE = ["sh", "-c", 'while IFS= read -r line; do if [ "$line" = size ]; then '
                            'stty size; else printf "got:%s\\n" "$line"; fi; done']


@pytest.fixture
def terminals(run_env: dict[str, str], repo: Path) -> Iterator[Callable[..., TerminalSession]]:
    opened: list[TerminalSession] = []

    def open_terminal(*args: str) -> TerminalSession:
        session = TerminalSession([sys.executable, "-m", "gzia", *args], env=run_env,
                                  cwd=str(repo))
        opened.append(session)
        return session

    yield open_terminal
    for session in opened:
        session.close()


def test_attach_relays_follows_the_window_and_detaches(
    gz: Callable[..., Result], repo: Path, terminals: Callable[..., TerminalSession],
) -> None:
    data = start_background(gz, repo, *ECHO_OR_SIZE)
    session = data["id"]
    terminal = terminals("session", "attach", session)
    set_window_size(terminal.master, 30, 100)
    terminal.read_until(f"[attached to session {session}: C-] detaches]".encode())
    terminal.type(b"size\r")
    terminal.read_until(b"30 100")
    set_window_size(terminal.master, 40, 120)  # SIGWINCH to the attacher
    terminal.type(b"size\r")
    terminal.read_until(b"40 120")
    terminal.type(b"hello\r")
    terminal.read_until(b"got:hello")
    terminal.type(b"\x1d")  # Ctrl-]
    terminal.read_until(f"[detached from session {session}: it keeps running]".encode())
    assert terminal.finish() == 0
    assert stored(repo, session)["status"] == "running"
    gz("session", "send-keys", session, "C-d", cwd=repo)
    assert wait_final(repo, session)["status"] == "completed"


def test_two_attachers_see_the_same_output_and_the_end(
    gz: Callable[..., Result], repo: Path, terminals: Callable[..., TerminalSession],
) -> None:
    data = start_background(gz, repo, *ECHO_OR_SIZE)
    session = data["id"]
    first, second = terminals("session", "attach", session), terminals("session", "attach",
                                                                         session)
    for terminal in (first, second):
        terminal.read_until(b"detaches]")
    gz("session", "submit", session, "from outside", cwd=repo)
    first.type(b"from first\r")
    for terminal in (first, second):
        terminal.read_until(b"got:from outside")
        terminal.read_until(b"got:from first")
    second.type(b"\x04")  # Ctrl-D: end of input, the agent's loop ends
    for terminal in (first, second):
        terminal.read_until(f"[session {session} ended: completed]".encode())
        assert terminal.finish() == 0


@pytest.mark.parametrize(("env", "message", "hint"), [
    ({}, "session '{id}' has finished (completed): there is nothing to attach to",
     "its output: gz-ia session output {id}"),
    ({"GZ_LANG": "es"}, "la sesión '{id}' ya terminó (completed): no hay nada a lo que "
                        "conectarse", "su salida: gz-ia session output {id}"),
])
def test_attaching_to_a_finished_session_says_so(
    gz: Callable[..., Result], repo: Path, env: dict[str, str], message: str, hint: str,
) -> None:
    data = start_background(gz, repo, "true")
    wait_final(repo, data["id"])
    result = gz("--json", "session", "attach", data["id"], cwd=repo, env=env)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["message"], error["hint"]) == (
        "CONFLICT", message.format(id=data["id"]), hint.format(id=data["id"]))
    assert result.json["data"]["status"] == "completed"


def test_while_a_terminal_is_attached_it_alone_answers(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
    terminals: Callable[..., TerminalSession],
) -> None:
    waits = 'while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "go")):\n' \
            '    time.sleep(0.02)\n'
    agent("asker", "import re\n" + waits + ASKS_ITS_TERMINAL)
    data = start_background(gz, repo, "asker")
    session = str(data["id"])
    terminal = terminals("session", "attach", session)
    terminal.read_until(b"detaches]")
    (notes / "go").write_text("")
    terminal.read_until(b"\x1b[6n\x1b[c")
    terminal.type(b"\x1b[7;3R\x1b[?62c")  # the attached terminal's own answers
    terminal.read_until(b":end")
    log = wait_until(lambda: b":end\r\n" in log_of(data) and log_of(data), what="the answers")
    assert b"answers:ESC[7;3RESC[?62c:end" in log
    terminal.type(b"hi\r")
    terminal.read_until(b"typed:hi")
    assert wait_final(repo, session)["status"] == "completed"


# Asks while detached (the holder answers what it knows), then reports each line it reads.
ASKS_THEN_REPORTS_INPUT = r"""
import select, tty
tty.setraw(0)
os.write(1, b"drawn\x1b[6n\x1b[c\x1b]11;?\x07\x1b[?u\x1b[>q")
got, deadline = b"", time.monotonic() + 15
while not got.endswith(b"\x07") and time.monotonic() < deadline:  # the OSC 11 answer, last
    if select.select([0], [], [], 0.1)[0]:
        got += os.read(0, 100)
os.write(1, b"ready>\r\n")
line = b""
while not line.endswith(b"\r"):
    line += os.read(0, 100)
os.write(1, b"typed:" + line.strip().replace(b"\x1b", b"ESC") + b":end\r\n")
"""
# What a real terminal types back for each query it is shown (xterm's kinds of answers).
TERMINAL_ANSWERS = {b"\x1b[6n": b"\x1b[12;1R", b"\x1b[c": b"\x1b[?62;22c",
                    b"\x1b]11;?\x07": b"\x1b]11;rgb:ffff/ffff/ffff\x07",
                    b"\x1b[?u": b"\x1b[?0u", b"\x1b[>q": b"\x1bP>|XTerm(390)\x1b\\"}


def test_a_new_attachers_terminal_is_not_asked_again(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
    terminals: Callable[..., TerminalSession],
) -> None:
    """The screen redrawn on attach comes from output holding queries the holder answered
    long ago; shown to a terminal, they would be answered again, into the agent's input."""
    agent("asker", "import re\n" + ASKS_THEN_REPORTS_INPUT)
    data = start_background(gz, repo, "asker")
    session = str(data["id"])
    wait_until(lambda: b"ready>" in log_of(data), what="the agent's prompt")
    terminal = terminals("session", "attach", session)
    shown = terminal.read_until(b"ready>")
    for query, answer in TERMINAL_ANSWERS.items():  # a terminal answers what it is shown
        if query in shown:
            terminal.type(answer)
    terminal.type(b"hi\r")
    terminal.read_until(b":end")
    assert b"typed:hi:end" in terminal.output, terminal.output
    assert b"drawn" in shown  # the screen itself is redrawn
    assert wait_final(repo, session)["status"] == "completed"
