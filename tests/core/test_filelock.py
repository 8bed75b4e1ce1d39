"""The one file lock: held by a descriptor, waited for until a deadline, and always on
the file that is still at its path."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

import pytest

from gzia.filelock import hold_lock, lock_fd, open_lock_file


class Locked(Exception):
    pass


def test_a_held_lock_excludes_others_until_its_descriptor_closes(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    held = hold_lock(path, time.monotonic(), Locked)
    other = open_lock_file(path)
    try:
        started = time.monotonic()
        assert not lock_fd(other, started + 0.2)
        assert time.monotonic() - started >= 0.2  # waited for the deadline, then gave up
        with pytest.raises(Locked):
            os.close(hold_lock(path, time.monotonic() + 0.05, Locked))
        os.close(held)
        assert lock_fd(other, time.monotonic())
    finally:
        os.close(other)


def test_a_lock_on_a_file_removed_meanwhile_is_taken_again_on_the_new_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.lock"
    stale = open_lock_file(path)
    path.unlink()  # its holder removed it after this waiter had opened it
    opened: list[int] = []

    def opener(lock: Path) -> int:
        opened.append(stale if not opened else open_lock_file(lock))
        return opened[-1]

    with pytest.raises(Locked):  # no time left: no second try
        hold_lock(path, time.monotonic(), Locked, opener=opener)
    stale = open_lock_file(path)
    path.unlink()
    opened.clear()
    fd = hold_lock(path, time.monotonic() + 5, Locked, opener=opener)
    try:
        assert len(opened) == 2 and fd == opened[1]
        assert os.fstat(fd).st_ino == path.stat().st_ino
    finally:
        os.close(fd)


def test_a_symbolic_link_at_the_lock_path_is_never_followed(tmp_path: Path) -> None:
    (tmp_path / "x.lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OSError) as refused:
        hold_lock(tmp_path / "x.lock", time.monotonic(), Locked)
    assert refused.value.errno == errno.ELOOP
    assert not (tmp_path / "elsewhere").exists()
