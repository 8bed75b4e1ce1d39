"""Relay between gz-ia's stdio and the master side of an agent's PTY.

Output of the agent goes to gz-ia's stdout and, when asked, to the run's output log
(:class:`~gzia.supervisor.logfile.RotatingLog`: capped, never raised to the run). Input from
gz-ia's stdin goes to the PTY; when stdin is a terminal it is in raw mode, so Ctrl+C
arrives as the byte 0x03 and the PTY turns it into SIGINT for the agent's group. When
stdin is not a terminal, its end becomes an end-of-file character for the agent.
Writes to the PTY never block the loop: they wait in a buffer until the PTY accepts them.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzia.supervisor.logfile import RotatingLog

from gzia.supervisor.ready import wait_ready
from gzia.supervisor.terminal import copy_window_size

CHUNK = 65536
MAX_PENDING_INPUT = 1 << 20
EOF_CHAR = b"\x04"
DRAIN_LIMIT_S = 1.0


class PtyRelay:
    def __init__(
        self, master: int, stdin_fd: int | None, stdout_fd: int, log: RotatingLog | None
    ) -> None:
        self.master = master
        self.stdin_fd = stdin_fd
        self.stdout_fd: int | None = stdout_fd
        self.output_error: OSError | None = None
        """Why gz-ia's stdout could not be written (a full disk), once it could not."""
        self._log = log
        self._pending = bytearray()
        self.master_open = True
        self.last_output = time.monotonic()
        os.set_blocking(master, False)

    def readable(self) -> list[int]:
        fds = [self.master] if self.master_open else []
        if self.stdin_fd is not None and len(self._pending) < MAX_PENDING_INPUT:
            fds.append(self.stdin_fd)
        return fds

    def writable(self) -> list[int]:
        return [self.master] if self._pending and self.master_open else []

    def handle(self, readable: list[int], writable: list[int]) -> None:
        if self.master in readable:
            self._pump_output()
        if self.stdin_fd is not None and self.stdin_fd in readable:
            self._read_input()
        if self.master in writable:
            self._flush_input()

    def drain(self, quiet_s: float = 0.05, limit_s: float = DRAIN_LIMIT_S) -> None:
        """After the agent is gone: copy what is left in the PTY until it goes quiet, or
        for ``limit_s`` at most (a process that left the agent's group may keep writing)."""
        deadline = time.monotonic() + limit_s
        while self.master_open and time.monotonic() < deadline:
            ready, _ = wait_ready([self.master], [], quiet_s)
            if not ready:
                return
            self._pump_output()

    def follow_window(self) -> None:
        """The terminal's window changed: the PTY takes its size."""
        copy_window_size(self.stdout_fd or 0, self.master)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.master)
        if self._log is not None:
            self._log.close()

    def _pump_output(self) -> None:
        data = self._read_master()
        if data:
            self.last_output = time.monotonic()
            self._write_out(data)

    def _read_master(self) -> bytes:
        """One read of what the agent wrote; empty when nothing is waiting, or when the
        PTY has closed (``master_open`` is then False)."""
        try:
            data = os.read(self.master, CHUNK)
        except BlockingIOError:
            return b""
        except OSError:  # EIO: every holder of the PTY's other side has gone
            data = b""
        if not data:
            self.master_open = False
        return data

    def _write_out(self, data: bytes) -> None:
        if self._log is not None:
            self._log.write(data)
        if self.stdout_fd is None:
            return
        try:
            write_all(self.stdout_fd, data)
        except OSError as exc:  # the agent keeps running, the log keeps going
            self.stdout_fd = None
            self.output_error = output_failure(exc, self.output_error)

    def _read_input(self) -> None:
        if self.stdin_fd is None:
            return
        try:
            data = os.read(self.stdin_fd, CHUNK)
        except OSError:
            data = b""
        if not data:
            self.stdin_fd = None
            self._pending += EOF_CHAR
        else:
            self._pending += data
        self._flush_input()

    def _flush_input(self) -> None:
        try:
            written = os.write(self.master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            self._pending.clear()
            return
        del self._pending[:written]


def output_failure(exc: OSError, earlier: OSError | None) -> OSError | None:
    """The first failure to write gz-ia's output that the command reports once the run is
    recorded (an I/O error, exit 1); a reader that left (``| head``) is not one."""
    return earlier if earlier is not None or isinstance(exc, BrokenPipeError) else exc


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            time.sleep(0.001)
            continue
        view = view[written:]

