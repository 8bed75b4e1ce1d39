"""Relay of an agent that runs without a terminal (a CI job, ``exec ... | tee``): its
stdout and stderr come through pipes to gz-ia's, and to the session's output log.

The agent keeps writing to pipes, as it would without gz-ia: no PTY turns its line ends
into ``\\r\\n`` or its output into a terminal's. Its stdout goes to gz-ia's stdout (or
stderr, when JSON mode keeps stdout for the envelope), its stderr to gz-ia's stderr, and
both, in the order they arrive, to the log (capped like every log:
:class:`~gzia.supervisor.logfile.RotatingLog`). stdin is the agent's own (inherited).
"""

from __future__ import annotations

import contextlib
import os
import time

from gzia.supervisor.logfile import RotatingLog
from gzia.supervisor.ready import wait_ready
from gzia.supervisor.relay import output_failure, write_all

CHUNK = 65536
DRAIN_LIMIT_S = 1.0


class PipeRelay:
    """The wait loop's interface of :class:`~gzia.supervisor.relay.PtyRelay`, for pipes."""

    def __init__(self, pipes: dict[int, int], log: RotatingLog | None) -> None:
        """``pipes``: each pipe's read end and the gz-ia fd its data goes to."""
        self._targets: dict[int, int | None] = dict(pipes)
        self._log = log
        self.last_output = time.monotonic()
        self.output_error: OSError | None = None  # as PtyRelay's
        for fd in pipes:
            os.set_blocking(fd, False)

    def readable(self) -> list[int]:
        return list(self._targets)

    def writable(self) -> list[int]:
        return []

    def handle(self, readable: list[int], writable: list[int]) -> None:
        for fd in [fd for fd in readable if fd in self._targets]:
            self._pump(fd)

    def follow_window(self) -> None:
        """No terminal, no window size to follow."""

    def drain(self, limit_s: float = DRAIN_LIMIT_S) -> None:
        """After the agent is gone: what is left in the pipes, until every writer has closed
        them, for ``limit_s`` at most (a process that left the agent's group may keep one)."""
        deadline = time.monotonic() + limit_s
        while self._targets and time.monotonic() < deadline:
            ready, _ = wait_ready(list(self._targets), [], deadline - time.monotonic())
            self.handle(ready, [])

    def close(self) -> None:
        for fd in list(self._targets):
            self._forget(fd)
        if self._log is not None:
            self._log.close()

    def _pump(self, fd: int) -> None:
        try:
            data = os.read(fd, CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._forget(fd)
            return
        self.last_output = time.monotonic()
        if self._log is not None:
            self._log.write(data)
        self._copy(fd, data)

    def _copy(self, fd: int, data: bytes) -> None:
        target = self._targets.get(fd)
        if target is None:
            return
        try:
            write_all(target, data)
        except OSError as exc:  # the agent runs on, the log keeps going
            self._targets[fd] = None
            self.output_error = output_failure(exc, self.output_error)

    def _forget(self, fd: int) -> None:
        self._targets.pop(fd, None)
        with contextlib.suppress(OSError):
            os.close(fd)
