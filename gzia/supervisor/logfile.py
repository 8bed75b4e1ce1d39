"""The output log of a background run: appended as it comes, capped in size by rotation.

``<id>.log`` grows to ``max_bytes``; then it becomes ``<id>.log.1`` (replacing an older
one) and a new ``<id>.log`` starts. So a session's log never holds more than about
``2 * max_bytes`` on disk, and the newest output is always kept. Writes go straight to
the file descriptor: nothing is buffered in memory however much the agent writes.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO


def rotated_path(path: Path) -> Path:
    return path.with_name(path.name + ".1")


class RotatingLog:
    def __init__(self, path: Path, max_bytes: int) -> None:
        """``max_bytes`` comes from the config key ``session_log_max_bytes``."""
        self.path = path
        self.max_bytes = max(1, max_bytes)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = self._open()
        self.size = os.fstat(self._fd).st_size

    def _open(self) -> int:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        return os.open(self.path, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            room = self.max_bytes - self.size
            if room <= 0:
                self._rotate()
                room = self.max_bytes
            part = view[:room]
            written = os.write(self._fd, part)
            self.size += written
            view = view[written:]

    def _rotate(self) -> None:
        os.close(self._fd)
        self.path.replace(rotated_path(self.path))
        self._fd = self._open()
        self.size = 0

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def log_size(path: Path) -> int:
    """Bytes kept on disk: the rotated part plus the current file."""
    total = 0
    for part in (rotated_path(path), path):
        with contextlib.suppress(OSError):
            total += part.stat().st_size
    return total


def read_log(path: Path) -> bytes:
    """What the log holds, oldest first (the rotated part, then the current file)."""
    data, _ = read_log_to_end(path)
    return data


TAIL_BLOCK = 64 * 1024


def read_log_tail(path: Path, lines: int) -> bytes:
    """The end of the log holding at least its last ``lines`` lines (or all of it): read
    backwards from the end in blocks, so a preview of a long log does not read it all."""
    blocks: list[bytes] = []
    newlines = 0
    for part in (path, rotated_path(path)):  # the newest output first
        try:
            log = part.open("rb")
        except FileNotFoundError:
            continue
        with log:
            position = log.seek(0, os.SEEK_END)
            while position > 0 and newlines <= lines:
                step = min(TAIL_BLOCK, position)
                position -= step
                log.seek(position)
                block = log.read(step)
                blocks.append(block)
                newlines += block.count(b"\n")
        if newlines > lines:
            break
    return b"".join(reversed(blocks))


def read_log_to_end(path: Path) -> tuple[bytes, int]:
    """What the log holds, and how far into the current file that read went: a
    :class:`LogFollower` started there gives every later byte once and none twice (a size
    taken before or after the read would repeat or lose what was written in between)."""
    rotated = _read_part(rotated_path(path))
    current = _read_part(path)
    return rotated + current, len(current)


def _read_part(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


class LogFollower:
    """``tail -F`` of a rotating log: every byte once, in order, across rotations.

    The open file is read to its end; when the path names a new file (a rotation renamed
    the old one, which is then written no more), the old one is read to its end first.
    """

    def __init__(self, path: Path, start: int = 0) -> None:
        self.path = path
        self._handle: BinaryIO | None = None
        self._start = start

    def read_available(self) -> bytes:
        if self._handle is None:
            self._handle = self._open()
        if self._handle is None:
            return b""
        data = self._handle.read()
        if self._rotated(self._handle):
            self._handle.close()
            self._handle, self._start = None, 0
            data += self.read_available()
        return data

    def _open(self) -> BinaryIO | None:
        try:
            handle = self.path.open("rb")
        except FileNotFoundError:
            return None
        handle.seek(self._start)
        return handle

    def _rotated(self, handle: BinaryIO) -> bool:
        try:
            return self.path.stat().st_ino != os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            return False

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
