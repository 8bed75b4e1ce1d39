"""What removing a directory under ``.harness/worktrees/`` would lose: the one rule
``session delete`` and ``session prune`` share.

A worktree git can read answers with ``git status``. A directory git cannot read (its
``.git`` file gone or broken, or a plain directory that never was a worktree) cannot be
checked that way: without its ``.git`` file, ``git status`` there would describe the main
worktree, where ``.harness/`` is excluded, and report nothing. Such a directory, when it
holds any file, is *unreadable*: only ``--force`` removes it, and then every file it held
is reported as discarded.
"""

from __future__ import annotations

import os
from pathlib import Path

from gzia.contract import IOFailure
from gzia.sessions.git import changed_paths
from gzia.sessions.workspace import HARNESS_PATHS


def uncommitted_files(directory: Path) -> list[str] | None:
    """Modified, staged and untracked files outside gz-ia's own directories; ``[]`` when
    the directory is gone or holds no file; ``None`` when git cannot tell (see above)."""
    if not directory.is_dir():
        return []
    if (directory / ".git").is_file():
        try:
            return changed_paths(directory, ignore_dirs=HARNESS_PATHS)
        except IOFailure:
            pass
    return None if files_in(directory) else []


def files_in(directory: Path) -> list[str]:
    """Every file under ``directory``, as sorted relative paths: symbolic links are
    listed, never followed; a subdirectory that cannot be read is listed as ``name/``.
    Left out: a top-level ``.git`` file and gz-ia's own top-level directories."""
    found: list[str] = []

    def unreadable(error: OSError) -> None:
        if error.filename is not None:
            found.append(f"{Path(error.filename).relative_to(directory).as_posix()}/")

    for top, dirs, files in os.walk(directory, onerror=unreadable):
        here = Path(top)
        relative = here.relative_to(directory)
        if here == directory:
            dirs[:] = [name for name in dirs if name not in HARNESS_PATHS]
        names = [name for name in files if here != directory or name != ".git"]
        links = [name for name in dirs if (here / name).is_symlink()]
        found += [(relative / name).as_posix() for name in (*names, *links)]
    return sorted(found)
