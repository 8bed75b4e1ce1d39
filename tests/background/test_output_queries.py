"""``session output --raw`` shows no terminal query on a terminal, and stays exact elsewhere.

The agent's terminal queries are in its log as it wrote them; a terminal the raw output is
printed on would answer them into the shell's input. The CLI runs as a real process with its
stdout on a real PTY (raw, so the bytes arrive as written) or on a pipe.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import subprocess
import sys
import time
import tty
from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import start_background, wait_final, wait_until
from tests.conftest import Result

QUERIES = (b"\x1b[6n\x1b[c\x1b[>q\x1b]11;?\x07\x1b]10;?\x1b\\\x1b[?2026$p\x1b[?u"
           b"\x1bP$qm\x1b\\")
WRITTEN = (b"\x1b[31mred\x1b[0m" + QUERIES + b"\x1b[2;5Hmoved\r\n\x1b]0;title\x07"
           + b"\x1b[5n" + b"last\r\n")
SHOWN = b"\x1b[31mred\x1b[0m\x1b[2;5Hmoved\r\n\x1b]0;title\x07last\r\n"

# The agent keeps its terminal raw, so the holder's answers to its queries (it answers
# while nobody is attached) are not echoed into the log: the log holds what it wrote.
WRITES_QUERIES = f"""
import tty
tty.setraw(0)
os.write(1, {WRITTEN!r})
"""

# Written in pieces, each query cut in two across them; the rest after "go".
PIECES = [b"first\x1b[31m\x1b[6", b"n\x1b]11;?\x1b", b"\\mid\x1bP$q", b"m\x1b\\\x1b[0mlast\r\n"]
FOLLOWED = b"first\x1b[31mmid\x1b[0mlast\r\n"
WRITES_PIECES = f"""
import tty
tty.setraw(0)
pieces = {PIECES!r}
os.write(1, pieces[0])
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "go")):
    time.sleep(0.02)
for piece in pieces[1:]:
    time.sleep(0.4)
    os.write(1, piece)
"""


class Printing:
    """``gz-ia ARGS`` as a real process with its stdout on a PTY (``terminal``) or a pipe."""

    def __init__(self, args: tuple[str, ...], *, cwd: Path, env: dict[str, str],
                 terminal: bool) -> None:
        if terminal:
            self._reader, writer = os.openpty()
            tty.setraw(writer)  # the bytes as written: no newline translation
        else:
            self._reader, writer = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gzia", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=writer, stderr=subprocess.PIPE, start_new_session=True)
        os.close(writer)
        self.output = b""

    def read_until(self, wanted: bytes, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in self.output:
            if not self._read_some(deadline - time.monotonic()):
                raise AssertionError(f"{wanted!r} never came; got {self.output!r}")

    def finish(self, timeout: float = 60.0) -> bytes:
        """Everything printed, once the command has ended (exit 0)."""
        deadline = time.monotonic() + timeout
        while self._read_some(deadline - time.monotonic()):
            pass
        _, err = self.process.communicate(timeout=max(0.1, deadline - time.monotonic()))
        assert self.process.returncode == 0, err
        return self.output

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._reader)
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()

    def _read_some(self, timeout: float) -> bool:
        if timeout <= 0:
            return False
        if not select.select([self._reader], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self._reader, 65536)
        except OSError:  # EIO: nothing holds the terminal open any more
            return False
        self.output += data
        return bool(data)


def _printed(args: tuple[str, ...], *, cwd: Path, env: dict[str, str], terminal: bool) -> bytes:
    printing = Printing(args, cwd=cwd, env=env, terminal=terminal)
    try:
        return printing.finish()
    finally:
        printing.close()


def _log(data: dict[str, object]) -> bytes:
    return Path(str(data["log_path"])).read_bytes()


def test_raw_output_on_a_terminal_has_no_query_and_is_exact_elsewhere(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
    run_env: dict[str, str],
) -> None:
    agent("asker", WRITES_QUERIES)
    data = start_background(gz, repo, "asker")
    session = str(data["id"])
    wait_final(repo, session)
    assert _log(data) == WRITTEN  # the queries are in the log

    def printed(*args: str, terminal: bool) -> bytes:
        return _printed(("session", "output", session, *args), cwd=repo, env=run_env,
                        terminal=terminal)

    assert printed("--raw", terminal=True) == SHOWN
    assert printed("--raw", "--tail", "1", terminal=True) == b"\x1b]0;title\x07last\r\n"
    assert printed("--raw", "-f", terminal=True) == SHOWN  # ended: -f prints it all, ends
    assert printed("--raw", terminal=False) == WRITTEN
    assert printed("--raw", "-f", terminal=False) == WRITTEN
    assert printed("--raw", "--tail", "1", terminal=False) == b"\x1b]0;title\x07\x1b[5nlast\r\n"
    for terminal in (True, False):  # a JSON document carries the exact bytes, anywhere
        document = json.loads(printed("--json", "--raw", terminal=terminal))
        assert base64.b64decode(document["data"]["data_base64"]) == WRITTEN
    assert printed(terminal=True) == b"redmoved\nlast\n"  # rendered text: no escapes at all


def test_followed_raw_output_on_a_terminal_loses_queries_cut_across_reads(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
    run_env: dict[str, str], notes: Path,
) -> None:
    agent("slow", WRITES_PIECES)
    data = start_background(gz, repo, "slow")
    session = str(data["id"])
    wait_until(lambda: _log(data) == PIECES[0], what="the first piece")
    args = ("session", "output", session, "--raw", "-f")
    on_terminal = Printing(args, cwd=repo, env=run_env, terminal=True)
    piped = Printing(args, cwd=repo, env=run_env, terminal=False)
    try:
        on_terminal.read_until(b"first\x1b[31m")
        piped.read_until(PIECES[0])
        assert on_terminal.output == b"first\x1b[31m"  # the half query is held back
        (notes / "go").write_text("1")
        assert on_terminal.finish() == FOLLOWED
        assert piped.finish() == b"".join(PIECES)
    finally:
        (notes / "go").write_text("1")  # the agent ends whatever happened
        on_terminal.close()
        piped.close()
    assert wait_final(repo, session)["status"] == "completed"
    assert _log(data) == b"".join(PIECES)
