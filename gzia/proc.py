"""The one place that creates processes.

Always an argv list, never a shell; explicit cwd and environment. :func:`run` runs
short-lived helper programs (git, version probes, a new pyz) to their end: never with
gz-ia's own secrets in the environment (:func:`gzia.credentials.without_secrets`: git and the
project's hooks it runs get no update credentials, as agents get none), a deadline on
every wait; a program that outlives its deadline is killed with its whole process group,
so a hanging binary never hangs gz-ia. :func:`start` starts a long-lived process (an
agent, a holder) for a caller that owns it from then on: ``gzia.supervisor`` (the agent,
its process group, its terminal, its waits) and ``gzia.sessions.background`` (a holder).

No ``preexec_fn``: without one no Python code runs between fork and ``exec`` (on Linux
CPython uses ``vfork``), so a program started from a thread (parallel version probes)
cannot be left stuck on a lock another thread held.
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
from typing import Any

from gzia.contract import NotFoundError, TimeoutFailure
from gzia.credentials import without_secrets
from gzia.i18n import N_

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


@contextlib.contextmanager
def _watched(pid: int) -> Iterator[None]:
    watched = _watchers.get()
    if watched is not None:
        watched.add(pid)
    try:
        yield
    finally:
        if watched is not None:
            watched.discard(pid)


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
    outlive_caller: bool = False,
    pass_fds: Sequence[int] = (),
) -> Completed:
    """Run ``argv`` to completion and capture its output as text.

    ``outlive_caller``: the program writes its output to unlinked temporary files, not
    to pipes, so if gz-ia is killed (SIGKILL) it runs to its end instead of dying of
    SIGPIPE half way (a ``git merge`` that moved the branch but left ``MERGE_HEAD``).
    ``pass_fds`` stay open in the program (a lock it holds until it ends).

    Raises :class:`NotFoundError` when the program does not exist and
    :class:`TimeoutFailure` when it outlives ``timeout`` (its process group is killed).
    """
    with contextlib.ExitStack() as files:
        out = err = subprocess.PIPE
        if outlive_caller:
            import tempfile

            out, err = (files.enter_context(tempfile.TemporaryFile("w+b")).fileno()
                        for _ in range(2))
        child = _spawn(argv, cwd=cwd, env=env, input_text=input_text, out=out, err=err,
                       pass_fds=pass_fds)
        with _watched(child.pid):
            stdout, stderr = _wait(child, argv, timeout, input_text)
        if outlive_caller:
            stdout, stderr = (_read_back(out), _read_back(err))
    return Completed(tuple(argv), child.returncode, stdout, stderr)


def start(argv: Sequence[str], *, cwd: str | Path, env: Mapping[str, str],
          **options: Any) -> subprocess.Popen[bytes]:
    """Start ``argv`` with exactly ``env`` in ``cwd``, every other fd closed. ``options``
    are :class:`subprocess.Popen`'s (stdio, a new session or process group, a
    ``preexec_fn`` the supervisor needs for a terminal). The caller waits, with deadlines."""
    return subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env), close_fds=True, **options)


def start_detached(argv: Sequence[str]) -> None:
    """Start ``argv`` detached: its own session, no terminal, /dev/null on its standard
    streams, this process's environment, never waited for (the background update check).

    ``os.posix_spawn``: a command on a person's terminal does not fork its whole memory
    for it (bench/update_notice.py)."""
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    os.posix_spawn(argv[0], list(argv), os.environ, file_actions=actions, setsid=True)


def _spawn(argv: Sequence[str], *, cwd: str | Path | None, env: Mapping[str, str] | None,
           input_text: str | None, out: int, err: int,
           pass_fds: Sequence[int]) -> subprocess.Popen[str]:
    try:
        return subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=without_secrets(os.environ if env is None else env),
            stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
            pass_fds=tuple(pass_fds),
        )
    except FileNotFoundError as exc:
        raise NotFoundError(N_("program '{program}' not found"), program=argv[0]) from exc


def _read_back(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def _wait(child: subprocess.Popen[str], argv: Sequence[str], timeout: float,
          input_text: str | None) -> tuple[str, str]:
    try:
        stdout, stderr = child.communicate(input_text, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        _kill_group(child)
        raise TimeoutFailure(
            N_("'{program}' did not finish within {seconds} s and was stopped"), program=argv[0],
            seconds=timeout, details={"argv": list(argv)}
        ) from exc
    except BaseException:  # Ctrl+C or SIGTERM reached gz-ia: let the program clean up
        _stop_group(child)
        raise
    return stdout or "", stderr or ""


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
