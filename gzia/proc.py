"""The one place that runs short-lived helper programs (git, version probes, a new pyz).

Always an argv list, never a shell; explicit cwd and environment; a deadline on every
wait. A program that outlives its deadline is killed with its whole process group, so a
hanging binary never hangs gz-ia. Long-lived agent processes belong to
``gzia.supervisor``, not here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from gzia.contract import NotFoundError, TimeoutFailure

DEFAULT_TIMEOUT = 30.0
STOP_GRACE = 2.0
"""How long a program stopped because gz-ia itself was interrupted gets to clean up
(git removes its ``index.lock`` on SIGTERM, never on SIGKILL)."""


_watchers: ContextVar[set[int] | None] = ContextVar("gzia_proc_watchers", default=None)


@contextlib.contextmanager
def watch_children(pids: set[int]) -> Iterator[None]:
    """While active (in this context and threads started from it), every program that
    :func:`run` starts has its pid (also its process group id) in ``pids`` until it ends,
    so a caller that gives up on the work can kill what it left running."""
    token = _watchers.set(pids)
    try:
        yield
    finally:
        _watchers.reset(token)


@dataclass(frozen=True)
class Completed:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def run(
    argv: Sequence[str],
    *,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    input_text: str | None = None,
) -> Completed:
    """Run ``argv`` to completion and capture its output as text.

    Raises :class:`NotFoundError` when the program does not exist and
    :class:`TimeoutFailure` when it outlives ``timeout`` (its process group is killed).
    """
    try:
        child = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        raise NotFoundError("proc.program_not_found", program=argv[0]) from exc
    watched = _watchers.get()
    if watched is not None:
        watched.add(child.pid)
    try:
        return _finish(child, argv, timeout, input_text)
    finally:
        if watched is not None:
            watched.discard(child.pid)


def _finish(child: subprocess.Popen[str], argv: Sequence[str], timeout: float,
            input_text: str | None) -> Completed:
    try:
        stdout, stderr = child.communicate(input_text, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        _kill_group(child)
        raise TimeoutFailure(
            "proc.timed_out", program=argv[0], seconds=timeout, details={"argv": list(argv)}
        ) from exc
    except BaseException:  # Ctrl+C or SIGTERM reached gz-ia: let the program clean up
        _stop_group(child)
        raise
    return Completed(tuple(argv), child.returncode, stdout, stderr)


def _stop_group(child: subprocess.Popen[str]) -> None:
    """SIGTERM to the group, a short grace, then SIGKILL (even if interrupted again)."""
    try:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(STOP_GRACE)
    finally:
        _kill_group(child)


def _kill_group(child: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.communicate()
