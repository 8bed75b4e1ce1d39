"""Reading a JSON Lines transcript as a stream: one bounded line in memory at a time.

A line that is not JSON is skipped and counted; a last line without its newline that is
not JSON yet is the agent still writing it (``partial``), not damage. Readers pass the
bytes a line must contain to matter (``wanted``): once the file is recognised as the
agent's format, other lines are not decoded at all, which is what keeps a 100 MB
transcript fast.

Hostile files cost bounded memory and time: only a regular file is read (a link to a
FIFO or a device is ``not_regular``), no further than its size when opened nor past
:data:`MAX_FILE_BYTES`; a line longer than :data:`MAX_LINE_BYTES` is passed over in
chunks, never held; a line nested deeper than :data:`MAX_NESTING` or holding more than
:data:`MAX_CONTAINERS` objects and arrays is not used. docs/metrics.md states them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from gzia.drivers.transcripts import NotRegularFileError, open_transcript
from gzia.metrics.model import FigureCheck, Notice

MAX_LINE_BYTES = 8 * 1024 * 1024
"""The longest line decoded. Real lines that hold usage are far shorter (a Claude Code
reply is at most its output tokens); longer ones, such as big tool results, hold none."""
MAX_FILE_BYTES = 2 * 1024**3
"""How much of one transcript is read at most."""
MAX_NESTING = 100
"""The deepest nesting of objects and arrays a used line may have."""
MAX_CONTAINERS = 262_144
"""The most ``{`` and ``[`` a decoded line may hold (each costs memory when decoded)."""
SKIP_CHUNK = 1024 * 1024
"""How much of an over-long line is read at a time while passing over it."""


def _not_json(constant: str) -> float:
    raise ValueError(f"{constant} is not JSON")  # RFC 8259 has no NaN or Infinity


_DECODER = json.JSONDecoder(parse_constant=_not_json)


class TooComplexError(ValueError):
    """A line nested too deep, or holding too many objects and arrays, to be used."""


@dataclass
class LineStats:
    path: Path
    lines: int = 0
    unreadable: int = 0
    too_long: int = 0
    too_complex: int = 0
    partial: bool = False
    truncated: bool = False
    recognised: bool = False
    """Set by the reader once a line shows the file is in the agent's format."""
    figures: FigureCheck = field(default_factory=FigureCheck)
    """Counts the figures of this file that cannot be true (left out)."""

    def notices(self) -> list[Notice]:
        where = str(self.path)
        found: list[Notice] = []
        if self.lines and not self.recognised:
            found.append(Notice("unknown_format", where, self.lines))
        for reason, count in (("unreadable_lines", self.unreadable),
                              ("too_complex", self.too_complex),
                              ("bad_values", self.figures.bad)):
            if count:
                found.append(Notice(reason, where, count))
        if self.too_long:
            found.append(line_too_long(where, self.too_long))
        if self.partial:
            found.append(Notice("partial", where, 1))
        if self.truncated:
            found.append(Notice("too_large", where, MAX_FILE_BYTES, _size(MAX_FILE_BYTES)))
        return found


def line_too_long(where: str, count: int) -> Notice:
    return Notice("line_too_long", where, count, _size(MAX_LINE_BYTES))


def _size(limit: int) -> str:
    return f"{limit >> 30} GiB" if limit >= 1 << 30 else f"{limit >> 20} MiB"


def json_objects(stats: LineStats, wanted: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects of the file's lines that contain ``wanted`` (every line until
    the file is recognised). Raises ``OSError`` when the file cannot be opened, and
    :class:`NotRegularFileError` when it is not a regular file."""
    stream, size = open_transcript(stats.path)
    stats.truncated = size > MAX_FILE_BYTES
    budget = min(size, MAX_FILE_BYTES)  # never past the size it had: a growing file ends
    with stream:
        while budget > 0 and (raw := stream.readline(MAX_LINE_BYTES + 1)):
            budget -= len(raw)
            if budget < 0:
                raw = raw[:budget]
            if len(raw) > MAX_LINE_BYTES:
                budget = _pass_over(stream, raw, budget, wanted, stats)
            elif not stats.recognised or wanted in raw:
                stats.lines += 1
                value = _decoded(stats, raw)
                if isinstance(value, dict):
                    yield value
            else:
                stats.lines += 1


def _decoded(stats: LineStats, raw: bytes) -> Any:
    """The line's value; ``None`` for a line that is counted as left out."""
    try:
        return decode_line(raw)
    except TooComplexError:
        stats.too_complex += 1
    except ValueError:  # UnicodeDecodeError is one too
        _count_bad(stats, raw)
    return None


def decode_line(raw: bytes | str) -> Any:
    """One JSON value (RFC 8259: no NaN, no Infinity), or :class:`TooComplexError`, or
    ``ValueError`` when it is not JSON."""
    text = raw.decode() if isinstance(raw, bytes) else raw  # UTF-8, as agents write them
    containers = text.count("{") + text.count("[")
    if containers > MAX_CONTAINERS:
        raise TooComplexError("too many objects and arrays")
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise TooComplexError("nested too deep") from None
    if containers > MAX_NESTING and _deeper_than(value, MAX_NESTING):
        raise TooComplexError("nested too deep")
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether objects and arrays in ``value`` nest more than ``limit`` deep (no
    recursion, so any depth is measured safely)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        for child in children:
            if isinstance(child, dict | list):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _pass_over(stream: BinaryIO, head: bytes, budget: int, wanted: bytes,
               stats: LineStats) -> int:
    """Read the rest of an over-long line in chunks, never holding it; count it when it
    holds ``wanted`` (it might have held figures). The budget left."""
    found, chunk = wanted in head, head
    while not chunk.endswith(b"\n") and budget > 0:
        tail = chunk[-len(wanted):] if wanted else b""
        chunk = stream.readline(min(SKIP_CHUNK, budget))
        if not chunk:
            break
        budget -= len(chunk)
        found = found or wanted in tail + chunk
    if found:
        stats.lines += 1
        stats.too_long += 1
    return budget


def unreadable(path: Path, exc: OSError, reason: str = "unreadable") -> Notice:
    """The notice for a file that could not be opened or read (``not_regular`` for a
    FIFO, a device, a socket or a directory)."""
    if isinstance(exc, NotRegularFileError):
        reason = "not_regular"
    return Notice(reason, str(path), detail=exc.strerror or str(exc))


def _count_bad(stats: LineStats, raw: bytes) -> None:
    if not raw.strip():
        stats.lines -= 1  # a blank line is no line
    elif not raw.endswith(b"\n"):
        stats.partial = True
    else:
        stats.unreadable += 1
