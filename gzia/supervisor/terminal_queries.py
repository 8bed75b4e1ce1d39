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

:func:`without_queries` takes every query out of past output shown on a person's terminal:
the output a new attacher's screen is redrawn from, and ``session output --raw`` to a
terminal (:class:`QueryFilter` for ``-f``, where a query may be split across reads).
Someone answered each already (the holder, or the terminal attached then), and the
terminal showing them again would answer again: into the agent's input, or into the
shell's of the person reading the output.
"""

from __future__ import annotations

import re

MAX_TAIL = 32
"""The longest unfinished query kept between two reads; a longer one is no query."""

MAX_HELD = 320
"""The longest unfinished sequence :class:`QueryFilter` holds back between two reads: room
for the longest query :data:`_ANY_QUERY` takes in practice (an OSC or DCS query's text is
at most 256 bytes); a longer one goes out as it is."""

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


# What can follow an unfinished query to complete it (a CSI query's parameters end in "n",
# "c" or "p"; an OSC or DCS one's text in "?" and BEL, or in ST): one of them completes
# each beginning of a query _ANY_QUERY takes (tests/supervisor/test_terminal_queries.py
# cuts every query at every byte), so "may still become a query" asks _ANY_QUERY itself.
_COMPLETIONS = (b"n", b"c", b"p", b"[c", b"\x07", b"?\x07", b";?\x07", b"0;?\x07", b"\\",
                b"q\x07", b"$q\x07")


def without_queries(output: bytes) -> bytes:
    """``output`` with its terminal queries taken out (they draw nothing), everything else
    byte for byte: for showing past output on a terminal, never for an attached terminal's
    live stream (that terminal answers the queries sent to it)."""
    return _ANY_QUERY.sub(b"", output)


class QueryFilter:
    """:func:`without_queries` for output that comes in pieces: feed it the pieces in order.

    An unfinished escape sequence at a piece's end that may still become a query is held
    back (at most :data:`MAX_HELD` bytes) until the next piece finishes it one way or the
    other; :meth:`flush` gives it back at the end. What it returns, joined, is
    ``without_queries`` of the whole (but for a query longer than ``MAX_HELD`` cut across
    two pieces, which goes out as it is).
    """

    def __init__(self) -> None:
        self._held = b""

    def feed(self, data: bytes) -> bytes:
        """``data``, after what was held, with its queries taken out; a possible query's
        unfinished beginning at the end is held back."""
        text = self._held + data
        cut = _unfinished_query(text)
        self._held = text[cut:]
        return without_queries(text[:cut])

    def flush(self) -> bytes:
        """What is held (no query: the output ended before it did)."""
        held, self._held = self._held, b""
        return held


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


def _unfinished_query(text: bytes) -> int:
    """Where the end of ``text`` that may still become a query starts (its length if none):
    the earliest escape within :data:`MAX_HELD` of the end, as an OSC query may be cut
    inside its ST."""
    at = text.find(b"\x1b", max(0, len(text) - MAX_HELD))
    while at >= 0:
        rest = text[at:]
        if any(_ANY_QUERY.fullmatch(rest + end) for end in _COMPLETIONS):
            return at
        at = text.find(b"\x1b", at + 1)
    return len(text)


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
