"""A real PTY acting as the user's terminal, with a program as its session leader."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence


class TerminalSession:
    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None,
                 cwd: str | None = None) -> None:
        self.master, slave = os.openpty()
        self.process = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
            preexec_fn=_take_controlling_terminal,  # noqa: PLW1509 - no threads here
            env=dict(env) if env else None, cwd=cwd,
        )
        os.close(slave)
        self.output = b""

    def read_until(self, marker: bytes, timeout: float = 15.0) -> bytes:
        deadline = time.monotonic() + timeout
        while marker not in self.output:
            if not self._read_some(deadline - time.monotonic()):
                raise AssertionError(f"{marker!r} never appeared; got {self.output!r}")
        return self.output

    def read_for(self, timeout: float) -> None:
        """Take what the program writes within ``timeout`` seconds (so it never blocks)."""
        deadline = time.monotonic() + timeout
        while self._read_some(deadline - time.monotonic()):
            pass

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def finish(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self._read_some(deadline - time.monotonic()):
            pass
        return self.process.wait(max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.master)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def _read_some(self, timeout: float) -> bool:
        if timeout <= 0:
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program and everything on the terminal has gone
            return False
        self.output += data
        return bool(data)


def _take_controlling_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
