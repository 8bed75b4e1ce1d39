"""The output log of a background run: appended as it comes, capped in size by rotation.

``<id>.log`` grows to ``max_bytes``; then it becomes ``<id>.log.1`` (replacing an older
one) and a new ``<id>.log`` starts. So a session's log never holds more than about
``2 * max_bytes`` on disk, and the newest output is always kept. Writes go straight to
the file descriptor: nothing is buffered in memory however much the agent writes.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from gzia.supervisor.degraded import HolderWarning, Warn


def rotated_path(path: Path) -> Path:
    return path.with_name(path.name + ".1")


class RotatingLog:
    """A log that cannot be written any more (the disk is full, the directory was
    deleted, an I/O error) is given up, never raised to the run: ``warn`` is told once
    and later output is not logged."""

    def __init__(self, path: Path, max_bytes: int, warn: Warn | None = None) -> None:
        """``max_bytes`` comes from the config key ``session_log_max_bytes``."""
        self.path = path
        self.max_bytes = max(1, max_bytes)
        self._warn = warn
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = self._open()
        self.size = os.fstat(self._fd).st_size

    def _open(self) -> int:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        return os.open(self.path, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)

    def write(self, data: bytes) -> None:
        try:
            self._write(data)
        except OSError as exc:
            self._give_up(exc)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self._fd is not None:
            room = self.max_bytes - self.size
            if room <= 0:
                self._rotate()
                room = self.max_bytes
            written = os.write(self._fd, view[:room])
            self.size += written
            view = view[written:]

    def _rotate(self) -> None:
        self.close()
        self.path.replace(rotated_path(self.path))
        self._fd = self._open()
        self.size = 0

    def _give_up(self, exc: OSError) -> None:
        self.close()
        if self._warn is not None:
            why = exc.strerror or str(exc)
            self._warn(HolderWarning.LOG_STOPPED,
                       f"output is no longer logged to {self.path}: {why}")

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


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


@dataclass(frozen=True)
class LogMark:
    """Where a read of the log ended: ``offset`` bytes into the file then current, known by
    its inode (``None``: there was none), since a rotation may have renamed it meanwhile."""

    inode: int | None
    offset: int


LOG_START = LogMark(None, 0)


def read_log_tail(path: Path, lines: int) -> bytes:
    """The end of the log holding at least its last ``lines`` lines (or all of it): read
    backwards from the end in blocks, so a preview of a long log does not read it all."""
    blocks: list[bytes] = []
    newlines = 0
    current, rotated = _open_parts(path)
    with current or contextlib.nullcontext(), rotated or contextlib.nullcontext():
        for log in (current, rotated):  # the newest output first
            if log is None:
                continue
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


def read_log_to_end(path: Path) -> tuple[bytes, LogMark]:
    """What the log holds, and where that read ended: a :class:`LogFollower` started
    there gives every later byte once and none twice, even across a rotation (a size
    taken before or after the read would repeat or lose what was written in between)."""
    current, rotated = _open_parts(path)
    with current or contextlib.nullcontext(), rotated or contextlib.nullcontext():
        older = rotated.read() if rotated is not None else b""
        if current is None:
            return older, LOG_START
        newer = current.read()
        return older + newer, LogMark(os.fstat(current.fileno()).st_ino, len(newer))


OPEN_ATTEMPTS = 5


def _open_parts(path: Path) -> tuple[BinaryIO | None, BinaryIO | None]:
    """The current file and the rotated one, as one pair: no rotation between the two
    opens. Were there one, the file opened as current would be opened again as the
    rotated one, and its lines read twice; then both are opened again (at most
    ``OPEN_ATTEMPTS`` times: rotations faster than that are taken as they come)."""
    for _ in range(OPEN_ATTEMPTS - 1):
        current, rotated = _open_part(path), _open_part(rotated_path(path))
        if current is None or _inode_at(path) == os.fstat(current.fileno()).st_ino:
            return current, rotated
        for handle in (current, rotated):
            if handle is not None:
                handle.close()
    return _open_part(path), _open_part(rotated_path(path))


def _open_part(path: Path) -> BinaryIO | None:
    try:
        return path.open("rb")
    except FileNotFoundError:
        return None


def _inode_at(path: Path) -> int | None:
    """The inode ``path`` names now (None: no file there)."""
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return None


class LogFollower:
    """``tail -F`` of a rotating log: every byte once, in order, across rotations.

    It starts where ``mark`` says a read ended (:func:`read_log_to_end`), in the current
    file or, when a rotation has renamed that file since, in the rotated one. The open
    file is read to its end; when the path names a new file (a rotation renamed the old
    one, which is then written no more), the old one is read to its end first.
    """

    def __init__(self, path: Path, mark: LogMark = LOG_START) -> None:
        self.path = path
        self._handle: BinaryIO | None = None
        self._mark = mark

    def read_available(self) -> bytes:
        if self._handle is None:
            self._handle = self._open()
        if self._handle is None:
            return b""
        data = self._handle.read()
        if self._rotated(self._handle):
            data += self._handle.read()  # written after the read above, before the rotation
            self._handle.close()
            self._handle = None
            data += self.read_available()
        return data

    def _open(self) -> BinaryIO | None:
        mark, self._mark = self._mark, LOG_START  # after the first file, each from its start
        if mark.inode is not None:
            for part in (self.path, rotated_path(self.path)):
                handle = _open_part(part)
                if handle is None:
                    continue
                if os.fstat(handle.fileno()).st_ino == mark.inode:
                    handle.seek(mark.offset)
                    return handle
                handle.close()
            # rotated twice since the read: what followed it is no longer on disk
        return _open_part(self.path)

    def _rotated(self, handle: BinaryIO) -> bool:
        inode = _inode_at(self.path)  # None between the rename and the new file: seen next time
        return inode is not None and inode != os.fstat(handle.fileno()).st_ino

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
