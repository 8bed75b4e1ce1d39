"""Writing files so that a crash at any moment leaves the old content or the new, whole."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, content: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``content``: temp file beside it, fsync, rename, fsync the dir."""
    import tempfile  # not on the start-up path of commands that only read

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        Path(temp).chmod(mode)
        Path(temp).replace(path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
