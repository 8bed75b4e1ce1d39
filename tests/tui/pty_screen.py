"""A program on a real PTY, its output drawn by a terminal emulator (pyte) as it arrives.

Waits are for what the screen shows, never for a fixed time: :meth:`PtyScreen.wait_for`
reads and draws until a predicate over the screen's lines holds. The parent keeps the
terminal's slave side open, so the terminal's settings can be read after the program
has left (:meth:`PtyScreen.attrs`). Also used by bench/tui.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyte

Lines = list[str]


ALTERNATE = 1049
KITTY_KEYS = re.compile(rb"\x1b\[[<>]\d*u")
"""Textual's keyboard-protocol switches (``CSI > flags u``, ``CSI < u``): terminals that
do not know them ignore them; pyte would draw their last letter."""


class AlternateScreen(pyte.Screen):  # type: ignore[misc]
    """A screen with xterm's alternate buffer (``CSI ? 1049 h``/``l``), which pyte lacks:
    entering saves the cursor and the main screen and clears; leaving brings both back."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.saved_main: tuple[Any, Any] | None = None

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private") and ALTERNATE in modes:
            self.saved_main = ({y: dict(line) for y, line in self.buffer.items()},
                               (self.cursor.x, self.cursor.y))
            self.erase_in_display(2)
            modes = tuple(m for m in modes if m != ALTERNATE)
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private") and ALTERNATE in modes and self.saved_main is not None:
            buffer, (x, y) = self.saved_main
            self.saved_main = None
            self.erase_in_display(2)
            for row, line in buffer.items():
                self.buffer[row].update(line)
            self.cursor.x, self.cursor.y = x, y
            self.dirty.update(range(self.lines))
            modes = tuple(m for m in modes if m != ALTERNATE)
        super().reset_mode(*modes, **kwargs)


class PtyScreen:
    def __init__(self, argv: Sequence[str], *, env: Mapping[str, str], cwd: str | None = None,
                 size: tuple[int, int] = (80, 24), alternate: bool = False) -> None:
        """``alternate``: draw with :class:`AlternateScreen` (as xterm does), else with
        one screen only (as the Linux console does)."""
        columns, rows = size
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.attrs_before = self.attrs()
        self.screen = (AlternateScreen if alternate else pyte.Screen)(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()  # appended in place: a long run writes megabytes
        self.process = subprocess.Popen(
            list(argv), stdin=self.slave, stdout=self.slave, stderr=self.slave,
            start_new_session=True, preexec_fn=_take_controlling_terminal,  # noqa: PLW1509
            env=dict(env), cwd=cwd)

    def attrs(self) -> list[Any]:
        """The terminal's settings as the program sees them (termios attributes)."""
        return termios.tcgetattr(self.slave)

    @property
    def lines(self) -> Lines:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines)

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_for(self, shown: Callable[[Lines], bool], what: str,
                 timeout: float = 30.0) -> float:
        """Read and draw until ``shown(lines)``; the monotonic time the deciding bytes
        arrived. Fails naming ``what``, with the screen, after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        arrived = time.monotonic()
        while not shown(self.lines):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (self.process.poll() is not None and not self._pending()):
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text()}")
            arrived = self.read(remaining) or arrived
        return arrived

    def wait_exit(self, timeout: float = 30.0) -> int:
        """The program's exit code, once it has ended; everything it wrote is drawn."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:  # drawing all along: a full terminal would block it
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not end; screen:\n{self.text()}")
            self.read(0.05)
        while self._pending():
            self.read(0)
        return self.process.returncode

    def read(self, timeout: float) -> float | None:
        """Draw what arrives within ``timeout`` seconds; when it arrived, or None."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return None
        arrived = time.monotonic()
        data = os.read(self.master, 65536)
        self.raw += data
        self.stream.feed(KITTY_KEYS.sub(b"", data))
        return arrived

    def _pending(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        return bool(ready)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def _take_controlling_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
