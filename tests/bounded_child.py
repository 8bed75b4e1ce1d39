"""Run gz-ia (or a Python snippet) as a child process under a memory and a time bound.

Hostile inputs must cost bounded memory and time: the child's address space is capped
with ``RLIMIT_AS``, so an input that makes it grow fails there (``MemoryError``, a crash)
instead of slowing the machine, and ``timeout`` ends a child that takes too long.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

MEMORY_LIMIT = 768 * 1024 * 1024
"""Bytes of address space: gz-ia's imports need ~100 MB; the old code's hostile cases
needed gigabytes."""


def _limit_memory(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def run_bounded(argv: list[str], *, cwd: Path, timeout: float,
                env: Mapping[str, str] | None = None, stdin: bytes = b"",
                memory: int = MEMORY_LIMIT) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end within ``timeout`` seconds and ``memory`` bytes, given
    ``stdin`` (a ``subprocess.TimeoutExpired`` fails the calling test); its output as text."""
    done = subprocess.run(argv, cwd=cwd, env=dict(os.environ if env is None else env),
                          input=stdin, capture_output=True, timeout=timeout,
                          preexec_fn=_limit_memory(memory), check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode(errors="replace"),
                                       done.stderr.decode(errors="replace"))


def gz_bounded(*args: str, cwd: Path, timeout: float,
               env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``gz-ia ARGS`` (this checkout's, through ``python -m gzia``) under the bounds."""
    return run_bounded([sys.executable, "-m", "gzia", *args], cwd=cwd, timeout=timeout, env=env)
