"""Answers to an agent's terminal queries while no terminal is attached to its PTY.

A full-screen program asks its terminal things when it starts (where the cursor is, what
kind of terminal it is, which colours it uses) and waits for the answers before it draws
or reads a key. A background run's PTY has no terminal behind it until a person
attaches, so the holder answers the standard queries itself, as a terminal of the PTY's
window size would: :class:`TerminalQueries` finds them in the agent's output (a query
split across reads is completed from a small kept tail) and returns the answers to type
into the PTY. Anything else is left unanswered, as a terminal that does not know it
would (the kitty keyboard query among them: the agent then keeps the legacy keys that
``session send-keys`` types).

:func:`without_queries` takes every query out of the output a new attacher's screen is
redrawn from: someone answered each already (the holder, or the terminal attached then),
and the new attacher's terminal would answer them again, into the agent's input.
"""

from __future__ import annotations

import re

MAX_TAIL = 32
"""The longest unfinished query kept between two reads; a longer one is no query."""

FOREGROUND = b"rgb:c0c0/c0c0/c0c0"
BACKGROUND = b"rgb:0000/0000/0000"
PRIMARY_ATTRIBUTES = b"\x1b[?1;2c"  # a VT100 with the advanced video option
SECONDARY_ATTRIBUTES = b"\x1b[>1;10;0c"  # a VT220, firmware 10

_QUERY = re.compile(
    rb"\x1b\[(?:(?P<cpr>6n)|(?P<status>5n)|(?P<da1>0?c)|(?P<da2>>0?c)|(?P<size>18t)"
    rb"|(?P<private>\??)(?P<mode>[0-9]{1,5})\$p)"
    rb"|\x1b\](?P<colour>1[01]);\?(?P<end>\x07|\x1b\\)")
_FIXED = {"status": b"\x1b[0n", "da1": PRIMARY_ATTRIBUTES, "da2": SECONDARY_ATTRIBUTES}
_PREFIX = re.compile(rb"\x1b(?:\[[?>]?[0-9;]*\$?|\](?:1[01]?(?:;\??\x1b?)?)?)?")


# Every sequence by which a program asks its terminal for a report, whether the holder
# answers it or not: device status (CSI ... n), device attributes (CSI c, > c, = c), mode
# reports (CSI ... $p), window reports (CSI 11..21 t, not 22/23 which push and pop the
# title), XTVERSION (CSI > q), the kitty keyboard flags (CSI ? u), graphics attributes read
# (CSI ? Pi ; 1|4 S), OSC queries (colours, palette, clipboard: a last parameter "?"),
# and DECRQSS / XTGETTCAP (DCS $ q, DCS + q).
_ANY_QUERY = re.compile(
    rb"\x1b\[(?:[?>]?[0-9;]*n|[>=]?[0-9;]*c|\??[0-9;]*\$p|(?:1[13-689]|2[01])(?:;[0-9]*)?t"
    rb"|>[0-9]*q|\?u|\?[0-9]+;[14](?:;[0-9;]*)?S)"
    rb"|\x1b\][0-9]+(?:;[^\x07\x1b]{0,256})?;\?(?:\x07|\x1b\\)"
    rb"|\x1bP[$+]q[^\x07\x1b]{0,256}(?:\x07|\x1b\\)")


def without_queries(output: bytes) -> bytes:
    """``output`` with its terminal queries taken out (they draw nothing): for redrawing a
    screen from past output, never for the live stream."""
    return _ANY_QUERY.sub(b"", output)


class TerminalQueries:
    """Feed it the agent's output, in order; it returns what a terminal would answer."""

    def __init__(self) -> None:
        self._tail = b""

    def answers(self, data: bytes, rows: int, cols: int) -> bytes:
        """The answers to the queries ``data`` completes, for a ``rows`` x ``cols`` window."""
        text = self._tail + data
        replies = bytearray()
        end = 0
        for match in _QUERY.finditer(text):
            replies += _answer(match, rows, cols)
            end = match.end()
        self._tail = _unfinished(text, end)
        return bytes(replies)

    def forget(self) -> None:
        """Drop a kept half query (a terminal is attached: it answers from now on)."""
        self._tail = b""


def _unfinished(text: bytes, start: int) -> bytes:
    """The end of ``text`` after ``start`` when it may still become a query."""
    at = text.find(b"\x1b", max(start, len(text) - MAX_TAIL))
    while at >= 0:  # the earliest: an OSC query may be cut inside its ST
        if _PREFIX.fullmatch(text, at):
            return text[at:]
        at = text.find(b"\x1b", at + 1)
    return b""


def _answer(match: re.Match[bytes], rows: int, cols: int) -> bytes:
    fixed = next((answer for name, answer in _FIXED.items() if match[name]), None)
    if fixed is not None:
        return fixed
    if match["cpr"]:  # the cursor's place is not tracked: the start of the last row
        return b"\x1b[%d;1R" % rows
    if match["size"]:
        return b"\x1b[8;%d;%dt" % (rows, cols)
    if match["mode"]:  # DECRQM: every mode is "not recognized"
        return b"\x1b[%s%s;0$y" % (match["private"], match["mode"])
    colour = FOREGROUND if match["colour"] == b"10" else BACKGROUND
    return b"\x1b]%s;%s%s" % (match["colour"], colour, match["end"])
