"""Removing the extractions of other gz-ia builds (gzia.extraction says where they are and
how a running gz-ia marks the one it uses).

The first start of a build (build/pyz_entry.py, once the dependencies are extracted) and
``gz-ia update`` call this. An extraction is removed only under an exclusive lock on its
mark, which no running gz-ia holds then, and it is renamed away first, so a start that
comes meanwhile extracts afresh instead of using a half-removed copy.
"""

from __future__ import annotations

import fcntl
import os
import shutil

from gzia.extraction import IN_USE


def is_gzia_extraction(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "site-packages", "gzia", "__init__.py"))


def last_started(path: str) -> float:
    for marked in (os.path.join(path, IN_USE), path):
        try:
            return os.stat(marked).st_mtime
        except OSError:
            continue
    return 0.0


def remove_if_unused(path: str, *, unmarked: bool = False) -> bool:
    """Remove the extraction ``path`` unless a running gz-ia holds it. One that carries no
    mark at all (made by a build that does not mark its use) is kept, unless ``unmarked``
    says the caller knows it is not in use."""
    flags = os.O_RDWR | os.O_CLOEXEC | (os.O_CREAT if unmarked else 0)
    try:
        fd = os.open(os.path.join(path, IN_USE), flags, 0o644)
    except OSError:
        return False
    doomed = f"{path}.removing-{os.getpid()}"
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(path, doomed)
    except OSError:  # in use, or gone meanwhile
        return False
    finally:
        os.close(fd)  # a start that comes after the rename extracts afresh
    shutil.rmtree(doomed, ignore_errors=True)
    parent, name = os.path.split(path)
    for leftover in (os.path.join(parent, f".{name}_lock"), f"{path}.tmp"):
        if os.path.isfile(leftover):
            os.unlink(leftover)
    return True


def in_use(path: str) -> bool:
    try:
        fd = os.open(os.path.join(path, IN_USE), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def remove_stale(root: str, current: str) -> list[str]:
    """Remove the extractions of other gz-ia builds in ``root`` that no running gz-ia
    holds, but for the most recently started of them (the build before an update, or a
    second copy used in turns); the removed paths. Extractions without a mark (made by
    builds that do not mark their use) are left alone."""
    try:
        names = os.listdir(root)
    except OSError:
        return []
    others = [os.path.join(root, name) for name in names if not name.startswith(".")]
    others = [path for path in others if path != current and is_gzia_extraction(path)
              and os.path.isfile(os.path.join(path, IN_USE))]
    others.sort(key=last_started, reverse=True)
    spare = next((path for path in others if not in_use(path)), None)
    return [path for path in others if path != spare and remove_if_unused(path)]
