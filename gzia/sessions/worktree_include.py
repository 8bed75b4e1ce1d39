"""``.worktreeinclude``: the main checkout's ignored files a new worktree needs (``.env``,
local configuration), copied into it.

The file sits at the project's root and speaks gitignore (``*``, ``**``, directories with
a trailing ``/``, ``!`` to take a path back out); git itself reads it
(``git ls-files --others --ignored --exclude-from``), so its syntax is git's, exactly.
A path is copied only when:

- git ignores it, in the main checkout and in the new worktree (a tracked file is in the
  worktree already; an untracked one that is not ignored would be committed);
- it is a regular file, read without following a link: a symbolic link is never copied,
  neither the link nor what it points to (a link to ``~/.ssh/id_ed25519`` would hand the
  agent a file from outside the project), and is reported as skipped;
- the worktree has nothing at that path, and every directory above it is a real
  directory of the worktree (never a link a branch tracks): nothing is replaced or
  written through.

A copy keeps the file's permission bits (a ``0600`` secret stays ``0600``). The copied
paths are added to the session's projected paths (:func:`gzia.sessions.projection
.remember_projected`), so no commit gz-ia makes takes them and ``session merge`` refuses a
branch that carries one.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from gzia.sessions.git import git_ok, run_git
from gzia.sessions.project import Project
from gzia.sessions.projected_files import create_file, is_free
from gzia.sessions.projection import remember_projected
from gzia.sessions.workspace import HARNESS_PATHS

INCLUDE_FILE = ".worktreeinclude"
SYMLINK = "symlink"
NOT_REGULAR = "not_regular"
NOT_IGNORED = "not_ignored"
OCCUPIED = "occupied"
UNREADABLE = "unreadable"


@dataclass
class IncludeReport:
    copied: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    """``{"path", "reason"}``: ``symlink``, ``not_regular``, ``not_ignored``, ``occupied``,
    ``unreadable``."""

    def to_json(self) -> dict[str, object]:
        return {"copied": self.copied, "skipped": self.skipped}


def copy_included(project: Project, session_id: str, worktree: Path) -> IncludeReport:
    """Copy what ``.worktreeinclude`` names from the main checkout into ``worktree``."""
    report = IncludeReport()
    candidates = _listed(project.root)
    if not candidates:
        return report
    ignored_here = _ignored(project.root, candidates)
    ignored_there = _ignored(worktree, candidates)
    for relpath in candidates:
        reason = (NOT_IGNORED if relpath not in ignored_here or relpath not in ignored_there
                  else _copy(project.root, worktree, relpath))
        if reason is None:
            report.copied.append(relpath)
        else:
            report.skipped.append({"path": relpath, "reason": reason})
    remember_projected(project, session_id, report.copied)
    return report


def _listed(root: Path) -> list[str]:
    """Untracked files of the main checkout that the include file's patterns match."""
    include = root / INCLUDE_FILE
    try:
        if not stat.S_ISREG(os.lstat(include).st_mode):
            return []  # a link or a directory is not read
    except FileNotFoundError:
        return []
    names = git_ok(["ls-files", "-z", "--others", "--ignored",
                    f"--exclude-from={include}"], root).split("\0")
    own = tuple(f"{name}/" for name in HARNESS_PATHS)
    return sorted(name for name in names if name and not name.startswith(own))


def _ignored(directory: Path, relpaths: list[str]) -> set[str]:
    """Which of ``relpaths`` git ignores in ``directory`` (its standard rules)."""
    done = run_git(["check-ignore", "-z", "--stdin"], directory,
                   input_text="".join(f"{path}\0" for path in relpaths))
    return {name for name in done.stdout.split("\0") if name}


def _copy(root: Path, worktree: Path, relpath: str) -> str | None:
    """Copy one file; None when copied, else why not."""
    try:
        fd = os.open(root / relpath, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return SYMLINK if (root / relpath).is_symlink() else UNREADABLE
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return NOT_REGULAR
        if not is_free(worktree, relpath):
            return OCCUPIED
        content = _read_all(fd)
    finally:
        os.close(fd)
    create_file(worktree, relpath, content, [], mode=stat.S_IMODE(info.st_mode))
    return None


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)
