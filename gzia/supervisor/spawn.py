"""Starting the agent: always the leader of a new process group, never through a shell.

* plain: the agent inherits gz-ia's stdin/stdout/stderr. When gz-ia owns the foreground of
  a terminal, the agent's group takes it over (``terminal.child_take_terminal``).
* pty: the agent gets a new PTY as its controlling terminal, in a new session, and gz-ia
  relays between its own stdio and the PTY's master side.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import termios
from collections.abc import Callable
from typing import Any

from gzia import proc
from gzia.contract import IOFailure, NotFoundError
from gzia.i18n import N_
from gzia.supervisor.command import Command
from gzia.supervisor.terminal import (
    child_take_terminal,
    copy_window_size,
    set_window_size,
)

Child = subprocess.Popen[bytes]


Preexec = Callable[[], None]


def spawn_plain(command: Command, terminal_fd: int | None, hold: Preexec | None = None) -> Child:
    """``hold`` runs last in the child before exec (:mod:`gzia.supervisor.startgate`)."""
    stdout = command.output_fd if command.stdout_to_stderr else None
    if terminal_fd is None:
        return _popen(command, process_group=0, stdout=stdout, preexec_fn=hold)
    child = _popen(command, stdout=stdout,
                   preexec_fn=_then(lambda: child_take_terminal(terminal_fd), hold))
    with contextlib.suppress(OSError):  # the child may already have exec'd: it did it itself
        os.setpgid(child.pid, child.pid)
    return child


def spawn_piped(command: Command, hold: Preexec | None = None) -> Child:
    """Without a terminal, in its own process group, its stdout and stderr on pipes (the
    caller relays them: :mod:`gzia.supervisor.pipe_relay`)."""
    return _popen(command, process_group=0, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                  preexec_fn=hold)


def spawn_in_pty(
    command: Command, size_from_fd: int | None, window: tuple[int, int] | None = None,
    hold: Preexec | None = None,
) -> tuple[Child, int]:
    """Start the agent on a new PTY; returns the child and the PTY's master fd.

    The PTY gets the size of the terminal ``size_from_fd``, else ``window`` (rows, cols).
    """
    master, slave = os.openpty()
    if size_from_fd is not None:
        copy_window_size(size_from_fd, slave)
    elif window is not None:
        set_window_size(slave, *window)
    try:
        child = _popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_then(_acquire_controlling_terminal, hold),
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return child, master


def _then(first: Preexec, hold: Preexec | None) -> Preexec:
    if hold is None:
        return first

    def both() -> None:
        first()
        hold()

    return both


def _acquire_controlling_terminal() -> None:
    default_signal_dispositions()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


RESET_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGPIPE,
                 signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGUSR1, signal.SIGUSR2)


def default_signal_dispositions() -> None:
    """In the forked child: no signal ignored or blocked. An ignored signal survives exec,
    so an agent started by a holder that ignores SIGHUP (or by a shell that ignored
    SIGINT for a background job) would otherwise inherit that."""
    for signum in RESET_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())


def _popen(command: Command, **options: Any) -> Child:
    try:
        return proc.start(command.argv, cwd=command.cwd, env=command.env, **options)
    except FileNotFoundError as exc:
        if not command.cwd.is_dir():
            raise NotFoundError(N_("working directory '{path}' does not exist"),
                                path=str(command.cwd)) from exc
        program = command.argv[0]
        # Drivers pass the absolute path they found: it vanished between lookup and exec.
        key = (N_("executable '{program}' no longer exists")
               if os.sep in program else N_("executable '{program}' not found in PATH"))
        raise NotFoundError(key, program=program, details={"argv": list(command.argv)}) from exc
    except PermissionError as exc:
        raise IOFailure(N_("'{program}' cannot be executed (permission denied)"),
                        program=command.argv[0]) from exc
    except OSError as exc:  # e.g. ENOEXEC: a script without ``#!``, a binary for another CPU
        raise IOFailure(N_("'{program}' cannot be started: {detail}"), program=command.argv[0],
                        detail=exc.strerror or str(exc)) from exc
