"""Reading a JSON Lines transcript as a stream: one line in memory at a time.

A line that is not JSON is skipped and counted; a last line without its newline that is
not JSON yet is the agent still writing it (``partial``), not damage. Readers pass the
bytes a line must contain to matter (``wanted``): once the file is recognised as the
agent's format, other lines are not decoded at all, which is what keeps a 100 MB
transcript fast.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.metrics.model import Notice

_DECODER = json.JSONDecoder()


@dataclass
class LineStats:
    path: Path
    lines: int = 0
    unreadable: int = 0
    partial: bool = False
    recognised: bool = False
    """Set by the reader once a line shows the file is in the agent's format."""

    def notices(self) -> list[Notice]:
        where = str(self.path)
        found: list[Notice] = []
        if self.lines and not self.recognised:
            found.append(Notice("unknown_format", where, self.lines))
        if self.unreadable:
            found.append(Notice("unreadable_lines", where, self.unreadable))
        if self.partial:
            found.append(Notice("partial", where, 1))
        return found


def json_objects(stats: LineStats, wanted: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects of the file's lines that contain ``wanted`` (every line until
    the file is recognised). Raises ``OSError`` when the file cannot be opened."""
    decode = _DECODER.decode
    with stats.path.open("rb") as stream:
        for raw in stream:
            stats.lines += 1
            if stats.recognised and wanted not in raw:
                continue
            try:
                value = decode(raw.decode())  # UTF-8, as every agent writes them
            except ValueError:  # UnicodeDecodeError is one too
                _count_bad(stats, raw)
                continue
            if isinstance(value, dict):
                yield value


def unreadable(path: Path, exc: OSError, reason: str = "unreadable") -> Notice:
    """The notice for a file that could not be opened or read."""
    return Notice(reason, str(path), detail=exc.strerror or str(exc))


def _count_bad(stats: LineStats, raw: bytes) -> None:
    if not raw.strip():
        stats.lines -= 1  # a blank line is no line
    elif not raw.endswith(b"\n"):
        stats.partial = True
    else:
        stats.unreadable += 1
