"""Apply: swap the running zipapp for a verified one, atomically, under a lock.

Layout beside ``gz-ia.pyz``: ``.gz-ia.pyz.update/`` while an update or rollback runs (the
lock and the staged download, under the same base name so its ``--version`` warms the shiv
cache the installed file will use; removed when the work ends) and ``.gz-ia.pyz.previous``
(the file that ran before the last swap). Every step
is a rename within one directory, so a kill at any moment leaves a complete
``gz-ia.pyz``, old or new.

The previous file is a dot-file: installed as ``~/.local/bin/gz-ia``, a ``gz-ia.previous``
beside it would be a command on PATH (completed after ``gz-<TAB>``, run by a typo);
``.gz-ia.previous`` is hidden from listings and command completion. It stays in the same
directory, not in the data dir: a rename within one directory (one filesystem) is what
makes the swap and the rollback atomic, and a hard link keeps the copy cheap; the data
dir may be on another filesystem, and one data dir serves every installed copy. Files
updated by older versions have ``gz-ia.previous``: rollback still finds it, and the next
update or rollback leaves only the hidden one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

from gzia import proc
from gzia.atomic import fsync_dir
from gzia.contract import IntegrityError, LockedError, NotFoundError
from gzia.extraction import APP_NAME
from gzia.filelock import hold_lock, open_lock_file
from gzia.i18n import N_
from gzia.selfexec import running_pyz as running_pyz  # noqa: PLC0414 - re-exported for update's callers

SELF_TEST_TIMEOUT = 120.0
LOCK_ATTEMPTS = 5
_VERSION_OUTPUT = re.compile(r"gz-ia\s+v?(?P<version>\S+)")
_VERSION_SOURCE = re.compile(r"""__version__\s*=\s*["'](?P<version>[^"']+)["']""")


def staging_dir(target: Path) -> Path:
    return target.parent / f".{target.name}.update"


def previous_path(target: Path) -> Path:
    """Where the file that ran before the last swap is kept (a hidden file, see above)."""
    return target.with_name(f".{target.name}.previous")


def legacy_previous_path(target: Path) -> Path:
    """Where versions before this one kept it: a command on PATH (``gz-ia.previous``)."""
    return target.with_name(target.name + ".previous")


def found_previous(target: Path) -> Path:
    """The previous file rollback swaps in: the hidden one, else an older version's."""
    previous, legacy = previous_path(target), legacy_previous_path(target)
    return legacy if not previous.is_file() and legacy.is_file() else previous


@contextlib.contextmanager
def update_lock(target: Path) -> Iterator[Path]:
    """An exclusive, non-blocking lock; yields the (cleaned) staging directory.

    When the work ends, the directory goes too (lock file included), so nothing is left
    beside the installed file; only what a failed rollback must finish stays. One try
    (a second update is refused at once): a lock taken on a lock file its finished
    holder has just unlinked would exclude no one, so that too is ``LOCKED``.
    """
    folder = staging_dir(target)
    fd = hold_lock(folder / "lock", time.monotonic(), opener=_open_lock, locked=lambda: (
        LockedError(N_("another update of {path} is in progress"), path=str(target),
                    hint_key=N_("wait for it to finish, then run the command again"),
                    details={"path": str(target)})))
    try:
        _finish_rollback(target, folder)
        _tidy(folder, keep={"lock"})
        yield folder
    finally:
        _clear(folder, keep={_displaced(target, folder).name})
        os.close(fd)


def _open_lock(lock: Path) -> int:
    """The lock file, created with its folder; a holder may remove both meanwhile."""
    for _ in range(LOCK_ATTEMPTS):
        lock.parent.mkdir(mode=0o700, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            return open_lock_file(lock)
    return open_lock_file(lock)


def _clear(folder: Path, keep: set[str]) -> None:
    """Remove ``folder`` (lock included) while the lock is still held; a file in ``keep``
    (a rollback to finish) keeps it."""
    try:
        _tidy(folder, keep)
        folder.rmdir()
    except OSError:
        pass  # not empty, or already gone


def _tidy(folder: Path, keep: set[str]) -> None:
    for leftover in folder.iterdir():
        if leftover.name not in keep:
            _remove(leftover)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def self_test(staged: Path, expected: str, shiv_root: Path | None = None) -> None:
    """Run the staged file's ``--version``; it must name ``expected``.

    ``shiv_root``: where it extracts itself (a scratch folder when nothing is installed);
    by default the shared shiv cache, warmed for the installed name.
    """
    from packaging.version import InvalidVersion, Version  # lazy: start-up speed


    env = {**os.environ, "SHIV_ROOT": str(shiv_root)} if shiv_root is not None else None
    result = proc.run([sys.executable, str(staged), "--version"], env=env,
                      timeout=SELF_TEST_TIMEOUT)
    match = _VERSION_OUTPUT.search(result.stdout)
    try:
        ok = result.ok and match is not None and Version(match["version"]) == Version(expected)
    except InvalidVersion:
        ok = False
    if not ok:
        output = (result.stdout + result.stderr).strip()[:200]
        raise IntegrityError(N_("the downloaded gz-ia does not report version {version}: {output}"),
                             version=expected, output=output,
                             details={"exit_code": result.returncode, "output": output})


DEPENDENCIES = "site-packages.zip"
"""The member holding a zipapp's ``site-packages/`` (build/set_pyz_entry.py)."""


def pyz_version(path: Path) -> str | None:
    """The version inside a zipapp, read without running it."""
    try:
        with zipfile.ZipFile(path) as archive:
            if DEPENDENCIES in archive.namelist():  # build/set_pyz_entry.py's layout
                with archive.open(DEPENDENCIES) as member, zipfile.ZipFile(member) as inner:
                    return _version_in(inner)
            return _version_in(archive)
    except (OSError, zipfile.BadZipFile):
        return None


def _version_in(archive: zipfile.ZipFile) -> str | None:
    for name in ("site-packages/gzia/_version.py", "gzia/_version.py"):
        if name in archive.namelist():
            found = _VERSION_SOURCE.search(archive.read(name).decode("utf-8", "replace"))
            return found["version"] if found else None
    return None


def build_id(path: Path) -> str | None:
    """shiv's build id (its extraction directory is ``gz-ia_<build_id>``)."""
    try:
        with zipfile.ZipFile(path) as archive:
            value = json.loads(archive.read("environment.json")).get("build_id")
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    return value if isinstance(value, str) else None


def _keep_copy(source: Path, destination: Path, scratch: Path) -> None:
    """Make ``destination`` a copy of ``source`` atomically (a hard link when possible)."""
    temporary = scratch / (destination.name + ".tmp")
    temporary.unlink(missing_ok=True)
    try:
        os.link(source, temporary)
    except OSError:
        shutil.copy2(source, temporary)
    temporary.replace(destination)


def install(staged: Path, target: Path, scratch: Path) -> Path:
    """Keep ``target`` as ``<name>.previous``, then rename ``staged`` over it."""
    staged.chmod(target.stat().st_mode & 0o7777)
    previous = previous_path(target)
    _keep_copy(target, previous, scratch)
    staged.replace(target)
    legacy_previous_path(target).unlink(missing_ok=True)  # an older one, runnable by name
    fsync_dir(target.parent)
    return previous


def _displaced(target: Path, scratch: Path) -> Path:
    return scratch / f"{target.name}.displaced"


def rollback(target: Path, scratch: Path) -> None:
    """Swap ``target`` and ``.<name>.previous`` (a second rollback undoes the first); an
    older version's ``<name>.previous`` is swapped in the same way, and the file it
    replaces is kept hidden."""
    previous = found_previous(target)
    if not previous.is_file():
        raise NotFoundError(N_("no previous version to roll back to ({path})"), path=str(previous),
                            details={"path": str(previous)})
    displaced = _displaced(target, scratch)
    _keep_copy(target, displaced, scratch)
    previous.replace(target)
    displaced.replace(previous_path(target))  # a kill just before this: see _finish_rollback
    fsync_dir(target.parent)


def _finish_rollback(target: Path, scratch: Path) -> None:
    """Put back as ``<name>.previous`` the file a rollback killed mid-swap left aside."""
    displaced = _displaced(target, scratch)
    if displaced.is_file() and not previous_path(target).exists():
        displaced.replace(previous_path(target))
        fsync_dir(target.parent)


def shiv_root() -> Path:
    """Where the zipapp extracts its dependencies (gzia.extraction)."""
    from gzia.extraction import extraction_root  # lazy: only where the pyz is cleaned

    return Path(extraction_root())


def clean_shiv_cache(target_name: str, keep: set[str], root: Path | None = None) -> list[Path]:
    """Remove extraction directories of gz-ia (``gz-ia_<build id>``; older builds named
    them after ``target_name``) whose build id is not in ``keep``, unless a running gz-ia
    still uses one."""
    from gzia.stale_builds import remove_if_unused  # lazy: only where the pyz is cleaned

    folder = root if root is not None else shiv_root()
    if not folder.is_dir():
        return []
    removed = []
    for prefix in dict.fromkeys((f"{APP_NAME}_", f"{target_name}_", f".{target_name}.previous_",
                                 f"{target_name}.previous_")):
        for entry in folder.glob(f"{glob_escape(prefix)}*"):
            if entry.is_dir() and entry.name[len(prefix):] not in keep \
                    and remove_if_unused(str(entry), unmarked=True):
                removed.append(entry)
    return removed


def glob_escape(text: str) -> str:
    import glob

    return glob.escape(text)
