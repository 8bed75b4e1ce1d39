"""Creating and removing the files of a projection, and nothing else, in a worktree.

A projection owns only what it creates. Every path it writes must not exist yet, as
anything: a file, a symbolic link (to inside or outside the worktree, or dangling), a
directory. The directories above it must be real directories of the worktree, never a
link, or be missing (then they are created, and recorded). A file is created with
``O_CREAT | O_EXCL | O_NOFOLLOW``, so nothing is replaced or written through even if the
path appears meanwhile. A file is removed only if it is still a regular file holding the
bytes gz-ia wrote; a directory only if gz-ia created it and it is empty.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from gzia.contract import ConflictError
from gzia.i18n import N_

CHUNK = 1 << 16


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def refuse_occupied(worktree: Path, relpaths: Iterable[str]) -> None:
    """``CONFLICT`` for the first path that exists, or lies under something that is not a
    real directory of the worktree."""
    for relpath in relpaths:
        if not is_free(worktree, relpath):
            raise ConflictError(N_("'{path}' is the project's own "
                                   "file: a profile cannot replace it"),
                                path=relpath,
                                details={"path": relpath})


def is_free(worktree: Path, relpath: str) -> bool:
    """Whether ``relpath`` does not exist and every existing parent is a real directory."""
    parts = _parts(relpath)
    if parts is None:
        return False
    current = worktree
    for index, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return True
        if index == len(parts) - 1 or not stat.S_ISDIR(mode):
            return False
    return False


def create_file(worktree: Path, relpath: str, content: bytes, created_dirs: list[str], *,
                mode: int = 0o644) -> None:
    """Create ``relpath`` exclusively, with ``mode`` (less the umask); the directories
    it made are appended to ``created_dirs`` (relative, parents first)."""
    parts = _parts(relpath)
    if parts is None or not is_free(worktree, relpath):
        raise ConflictError(N_("'{path}' is the project's own file: a profile cannot replace it"),
                            path=relpath,
                            details={"path": relpath})
    for index in range(1, len(parts)):
        directory = worktree.joinpath(*parts[:index])
        try:
            directory.mkdir()
        except FileExistsError:
            continue
        created_dirs.append("/".join(parts[:index]))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(worktree / relpath, flags, mode)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def remove_if_unchanged(worktree: Path, relpath: str, digest: str) -> bool:
    """Remove ``relpath`` if it is still a regular file holding what gz-ia wrote (by its
    SHA-256); anything else there is left alone. True when it was removed."""
    parts = _parts(relpath)
    if parts is None or not _real_directories(worktree, parts[:-1]):
        return False
    path = worktree / relpath
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or _digest(fd) != digest:
            return False
    finally:
        os.close(fd)
    path.unlink()
    return True


def remove_created_dirs(worktree: Path, relpaths: Iterable[str]) -> None:
    """Remove the directories gz-ia created (deepest first) that are empty now."""
    for relpath in sorted(relpaths, key=lambda p: -len(_parts(p) or ())):
        parts = _parts(relpath)
        if parts is None or not _real_directories(worktree, parts):
            continue
        try:
            (worktree / relpath).rmdir()
        except OSError:
            continue  # not empty: the agent's files are in it


def _digest(fd: int) -> str:
    hasher = hashlib.sha256()
    while chunk := os.read(fd, CHUNK):
        hasher.update(chunk)
    return hasher.hexdigest()


def _real_directories(worktree: Path, parts: tuple[str, ...]) -> bool:
    current = worktree
    for part in parts:
        current = current / part
        try:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                return False
        except OSError:
            return False
    return True


def _parts(relpath: str) -> tuple[str, ...] | None:
    """The components of a plain relative path (None for ``..``, ``.``, absolute, empty)."""
    path = PurePosixPath(relpath)
    if path.is_absolute() or not path.parts or any(p in ("..", ".") for p in path.parts):
        return None
    if "\\" in relpath or "\0" in relpath or relpath.endswith("/"):
        return None
    return path.parts
