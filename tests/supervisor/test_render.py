"""What ``session output`` (and the TUI's preview) shows of a terminal's bytes: exact
renderings, and a pathological log rendered in linear time (docs/sessions.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gzia.supervisor.render import render_text
from tests.bounded_child import run_bounded


@pytest.mark.parametrize(("raw", "shown"), [
    # a lone \r returns to the line's start: the last state of a progress bar
    (b"10%\r50%\r100%\n", "100%\n"),
    (b"\rabc\r", "abc"),
    (b"abc\r\r\rd\n", "dbc\n"),
    # \r\n ends a line, as \n does
    (b"one\r\ntwo\r\n\r\nthree", "one\ntwo\n\nthree"),
    (b"one\n\rtwo\r\r\n", "one\ntwo\n"),
    # a shorter write overwrites only the start; a longer one all of it
    (b"abcdef\rXY\n", "XYcdef\n"),
    (b"abcdef\rXY\rZ\n", "ZYcdef\n"),
    (b"ab\rwxyz\rQ", "Qxyz"),
    (b"downloading 1/3\rdone\n", "doneloading 1/3\n"),
    # backspace removes the character before it, never past the line's start
    (b"abc\b\bX\n", "aX\n"),
    (b"\b\bok", "ok"),
    (b"abc\rX\bY", "Y"),
    # escape sequences are removed, not interpreted
    (b"\x1b[1;31mred\x1b[0m plain\n", "red plain\n"),
    (b"\x1b]0;title\x07a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b\n", "alinkb\n"),
    (b"\x1b[2K\r\x1b[1Gprompt> \x1b[?2004h", "prompt> "),
    (b"\x1b(Bx\x1bPsixel\x1b\\y\xc2\x9b1mz", "xyz"),  # C1 CSI as UTF-8
    (b"\x1b[200~pasted\x1b[201~\n", "pasted\n"),
    # other control characters are dropped; tabs stay; bad UTF-8 is replaced
    (b"a\x07b\x00c\td\x7f\n", "abc\td\n"),
    (b"caf\xc3\xa9 \xff!\n", "café \ufffd!\n"),
    (b"", ""),
])
def test_exact_renderings(raw: bytes, shown: str) -> None:
    assert render_text(raw) == shown


def test_a_long_line_of_overwrites_renders_the_last_state_of_each_position() -> None:
    writes = [b"x" * 50, b"y" * 10, b"z" * 30, b"w" * 5]
    assert render_text(b"\r".join(writes) + b"\n") == "w" * 5 + "z" * 25 + "x" * 20 + "\n"


PATHOLOGICAL = """
import sys
from gzia.supervisor.render import render_text
size = 3_000_000
long_line = b"=" * (size // 2) + b"\\r-" * (size // 4) + b"\\n"
text = render_text(long_line + b"ok\\r\\n" * 200_000 + b"\\x1b[1mbold\\x1b[0m\\r" * 100_000)
expected = "-" + "=" * (size // 2 - 1) + "\\n" + "ok\\n" * 200_000 + "bold"
sys.exit(0 if text == expected else 1)
"""


def test_a_pathological_log_renders_in_linear_time(tmp_path: Path) -> None:
    """~5 MB: one 2.25 MB line of 750,000 overwrites, many short lines, ANSI. The
    quadratic renderer took minutes on the first part alone; this takes well under a
    second, so 20 s cannot flake."""
    done = run_bounded([sys.executable, "-c", PATHOLOGICAL], cwd=tmp_path, timeout=20)
    assert (done.returncode, done.stderr) == (0, "")
