"""Readiness signals for tests: wait for the thing itself, never for a fixed time."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Return once ``predicate()`` holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def is_sleeping_in_a_timer(pid: int) -> bool:
    """Whether the process waits in ``time.sleep`` (a poll loop between two polls)."""
    try:
        return "nanosleep" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


def descriptors_open_on(path: Path) -> int:
    """How many of this process's file descriptors are open on ``path``."""
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") == str(path):
                count += 1
        except OSError:  # the listing's own descriptor, or one closed meanwhile
            continue
    return count
