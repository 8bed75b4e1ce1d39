"""The controlling terminal during a foreground run.

Two ways to give the agent the terminal:

* handoff (no PTY): the agent's process group becomes the terminal's foreground group
  (``tcsetpgrp``), so Ctrl+C, Ctrl+\\ and the terminal's reads reach the agent and not
  gz-ia. Afterwards gz-ia takes the foreground back and restores the terminal settings
  the agent may have changed. ``tcsetpgrp`` from a background group raises SIGTTOU, so it
  is ignored around every switch.
* raw mode (PTY): gz-ia's terminal passes every byte (Ctrl+C included) to the PTY, whose
  line discipline turns it into the signal for the agent's group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import termios
import tty
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

TermAttrs = list[Any]


def foreground_terminal_fd() -> int | None:
    """stdin's fd when it is a terminal whose foreground group is gz-ia's own group."""
    fd = 0
    try:
        if not os.isatty(fd):
            return None
        return fd if os.tcgetpgrp(fd) == os.getpgrp() else None
    except OSError:
        return None


@contextlib.contextmanager
def sigttou_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGTTOU, previous)


def give_terminal(fd: int, pgid: int) -> bool:
    """Make ``pgid`` the foreground group of terminal ``fd``; False if it cannot be done."""
    with sigttou_ignored():
        try:
            os.tcsetpgrp(fd, pgid)
        except OSError:
            return False
    return True


def child_take_terminal(fd: int) -> None:
    """Run in the forked child before exec: own group, then foreground of the terminal.

    SIGTTOU is ignored meanwhile, so this call does not stop the child; the default
    disposition is restored before exec (ignored signals survive exec).
    """
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.setpgid(0, 0)
    with contextlib.suppress(OSError):
        os.tcsetpgrp(fd, os.getpgrp())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)


@dataclass
class SavedTerminal:
    fd: int
    pgid: int
    attrs: TermAttrs

    @classmethod
    def capture(cls, fd: int) -> SavedTerminal:
        return cls(fd, os.tcgetpgrp(fd), termios.tcgetattr(fd))

    def restore(self) -> None:
        """Take the foreground back and put the settings back as they were."""
        give_terminal(self.fd, self.pgid)
        with sigttou_ignored(), contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.attrs)


@contextlib.contextmanager
def raw_mode(fd: int) -> Iterator[None]:
    """Put terminal ``fd`` in raw mode for the block, restoring it on every exit path."""
    saved = termios.tcgetattr(fd)
    tty.setraw(fd, termios.TCSANOW)
    try:
        yield
    finally:
        with sigttou_ignored():
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def set_window_size(fd: int, rows: int, cols: int) -> None:
    """Set a PTY's size; on the master side the kernel tells the agent (SIGWINCH)."""
    import fcntl
    import struct

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def copy_window_size(source_fd: int, target_fd: int) -> None:
    """Give the PTY ``target_fd`` the size of the terminal ``source_fd`` (if it is one)."""
    import fcntl
    import struct

    with contextlib.suppress(OSError):
        size = fcntl.ioctl(source_fd, termios.TIOCGWINSZ, struct.pack("HHHH", 0, 0, 0, 0))
        fcntl.ioctl(target_fd, termios.TIOCSWINSZ, size)


class JobControl:
    """Ctrl+Z during a handoff run: the agent stops, so gz-ia gives the terminal back and
    stops too (the shell regains control); on ``fg`` it hands the terminal to the agent
    again and continues it. Where nothing can continue gz-ia (an orphaned process group),
    the kernel discards the stop and the agent simply continues.
    """

    def __init__(self, saved: SavedTerminal, pgid: int) -> None:
        self.saved = saved
        self.pgid = pgid

    def check(self) -> None:
        try:
            info = os.waitid(os.P_PID, self.pgid, os.WSTOPPED | os.WNOHANG)
        except ChildProcessError:
            return
        if info is None or info.si_code != os.CLD_STOPPED:
            return
        fd = self.saved.fd
        agent_attrs = _attrs_or_none(fd)
        self.saved.restore()
        os.killpg(os.getpgrp(), signal.SIGTSTP)
        if os.tcgetpgrp(fd) == os.getpgrp():  # back in the foreground (``fg``)
            give_terminal(fd, self.pgid)
            if agent_attrs is not None:
                with sigttou_ignored(), contextlib.suppress(termios.error, OSError):
                    termios.tcsetattr(fd, termios.TCSADRAIN, agent_attrs)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pgid, signal.SIGCONT)


def _attrs_or_none(fd: int) -> TermAttrs | None:
    try:
        return termios.tcgetattr(fd)
    except termios.error:
        return None
