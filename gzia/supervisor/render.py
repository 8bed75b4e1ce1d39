"""A terminal's output as plain text: what ``session output`` prints by default.

Escape sequences (colours, cursor moves, titles, bracketed-paste switches) are removed,
not interpreted; ``\\r\\n`` ends a line, a lone ``\\r`` returns to the line's start (so a
progress bar shows its last state), a backspace removes the character before it, and
other control characters are dropped. ``--raw`` gives the bytes instead.
"""

from __future__ import annotations

import re

_SEQUENCE = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL or ST (a title, a hyperlink)
    r"|\x1b[P^_X][^\x1b]*(?:\x1b\\)?"  # DCS, PM, APC, SOS ... ST
    r"|\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor, modes
    r"|\x1b[ -/]*[0-~]"  # two-character escapes, charset selection
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROL = re.compile(r"[\x00-\x07\x0b-\x1f\x7f]")


def render_text(data: bytes) -> str:
    text = _SEQUENCE.sub("", data.decode("utf-8", "replace"))
    return "\n".join(_render_line(line) for line in text.replace("\r\n", "\n").split("\n"))


def _render_line(line: str) -> str:
    if "\r" in line:
        parts = [part for part in line.split("\r") if part]
        line = _overlay(parts)
    if "\b" in line:
        kept: list[str] = []
        for char in line:
            if char == "\b":
                if kept:
                    kept.pop()
            else:
                kept.append(char)
        line = "".join(kept)
    return _CONTROL.sub("", line)


def _overlay(parts: list[str]) -> str:
    """Each part written from the start of the line over the ones before it.

    Read from the last part back: each position shows the latest part that reaches it,
    so an earlier part adds only what lies past every later one. Linear in the line's
    length (rewriting the whole line for each part was quadratic: a long line followed by
    many short overwrites, as progress output makes)."""
    shown: list[str] = []
    covered = 0
    for part in reversed(parts):
        if len(part) > covered:
            shown.append(part[covered:])
            covered = len(part)
    return "".join(shown)

