"""Exclusive locks on files (``flock``), held for as long as a descriptor stays open.

The one way gz-ia locks a file: the session store's per-record locks, the merge lock of
a base, and the update's lock beside the installed file. Callers give their own error
(each names what is locked) and their own deadline; closing the descriptor releases.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

Opener = Callable[[Path], int]


def open_lock_file(path: Path) -> int:
    """Open (creating it) the lock file at ``path``, never through a symbolic link."""
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def lock_fd(fd: int, deadline: float, poll: float = 0.005) -> bool:
    """Take an exclusive lock on ``fd``, trying at least once and again every ``poll``
    seconds until ``deadline`` (``time.monotonic()``); whether it was taken."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll)


def hold_lock(path: Path, deadline: float, locked: Callable[[], Exception], *,
              opener: Opener = open_lock_file, poll: float = 0.005) -> int:
    """A descriptor holding the lock of the file that is (still) at ``path``.

    A holder may remove its lock file while holding it (a deleted session, a finished
    update): a lock taken meanwhile on the removed file would exclude no one, so the
    file at ``path`` is opened again while time remains. ``locked()`` is raised when
    the deadline passes.
    """
    while True:
        fd = opener(path)
        try:
            if lock_fd(fd, deadline, poll) and is_same_file(fd, path):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        if time.monotonic() >= deadline:
            raise locked()


def is_same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        named = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
