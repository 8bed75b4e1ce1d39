"""The PTY relay of a background run: the agent's output to the log and to attachers,
input from the control socket to the agent.

It is a :class:`~gzia.supervisor.relay.PtyRelay` with no stdin and no stdout (the holder
has no terminal), so the supervisor's wait loop, watchdogs and clean-up are the same as
for a foreground run. Memory stays flat whatever the agent writes: output goes straight
to the log's file descriptor, attachers get it as it comes (a slow one is dropped), and
only the last :data:`RECENT_BYTES` are kept, to redraw the screen of a new attacher
(without the terminal queries in them: they were answered when they came).
While nobody is attached, the agent's terminal queries are answered here
(:mod:`gzia.supervisor.terminal_queries`); an attacher's terminal answers them otherwise.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from gzia.contract import ErrorCode
from gzia.supervisor.control import (
    ControlServer,
    Handler,
    Reply,
    Request,
    decode_bytes,
    refusal,
)
from gzia.supervisor.control import encode_bytes as encode
from gzia.supervisor.degraded import HolderWarning, Warn
from gzia.supervisor.logfile import RotatingLog
from gzia.supervisor.relay import MAX_PENDING_INPUT, PtyRelay
from gzia.supervisor.terminal import set_window_size
from gzia.supervisor.terminal_queries import TerminalQueries, without_queries

RECENT_BYTES = 64 * 1024
BATCH_BYTES = 1 << 20


class HolderRelay(PtyRelay):
    def __init__(self, master: int, log: RotatingLog, server: ControlServer,
                 warn: Warn | None = None) -> None:
        super().__init__(master, None, 1, None)
        self._warn = warn or (lambda _code, _message: None)
        self.stdout_fd = None
        self.log = log
        self.server = server
        self.total_bytes = 0
        self._recent = bytearray()
        self._queries = TerminalQueries()
        server.handlers.update(self._handlers())

    def _handlers(self) -> Mapping[str, Handler]:
        return {"poll": self._poll, "input": self._input, "resize": self._resize,
                "attach": self._attach}

    # -- the wait loop's interface ---------------------------------------------------
    def readable(self) -> list[int]:
        return super().readable() + self.server.readable()

    def writable(self) -> list[int]:
        return super().writable() + self.server.writable()

    def handle(self, readable: list[int], writable: list[int]) -> None:
        super().handle(readable, writable)
        try:
            self.server.handle(readable, writable)
        except Exception as exc:  # the control socket's failure never ends the run
            self._warn(HolderWarning.HANDLER_FAILED, f"the control socket failed: {exc!r}"[:500])

    def close(self) -> None:
        """Close the PTY and the log; the control socket stays until the record is final."""
        super().close()
        self.log.close()

    def _pump_output(self) -> None:
        """Read what the PTY holds now (a PTY hands out a few KiB per read), then write it
        to the log and the attachers at once: one pass of the wait loop per batch."""
        batch = bytearray()
        while len(batch) < BATCH_BYTES:
            data = self._read_master()
            if not data:
                break
            batch += data
        if batch:
            self.last_output = time.monotonic()
            self._write_out(bytes(batch))

    def _write_out(self, data: bytes) -> None:
        self.total_bytes += len(data)
        self.log.write(data)
        self.server.broadcast(data)
        self._recent += data[-RECENT_BYTES:]  # a batch may be 1 MiB: copy only what is kept
        if len(self._recent) > 2 * RECENT_BYTES:
            del self._recent[:-RECENT_BYTES]
        self._answer_queries(data)

    def _answer_queries(self, data: bytes) -> None:
        """Answer the agent's terminal queries as a terminal of the PTY's size would,
        while no terminal is attached to answer them."""
        if self.server.attached():
            self._queries.forget()
            return
        try:
            cols, rows = os.get_terminal_size(self.master)
        except OSError:  # the PTY is closing: nobody reads the answers
            return
        answers = self._queries.answers(data, rows, cols)
        if answers and len(self._pending) + len(answers) <= MAX_PENDING_INPUT:
            self._pending += answers
            self._flush_input()

    # -- requests --------------------------------------------------------------------
    def _poll(self, _request: Request) -> Reply:
        return {"ok": True, "output_bytes": self.total_bytes,
                "idle_s": round(time.monotonic() - self.last_output, 3),
                "attached": self.server.attached()}

    def _input(self, request: Request) -> Reply:
        data = decode_bytes(request.get("data"))
        if not self.master_open:
            return refusal(ErrorCode.CONFLICT, "the agent's terminal is closed")
        if len(self._pending) + len(data) > MAX_PENDING_INPUT:
            return refusal(ErrorCode.LOCKED, "too much input waiting for the agent")
        self._pending += data
        self._flush_input()
        return {"ok": True, "bytes": len(data)}

    def _resize(self, request: Request) -> Reply:
        rows, cols = int(request["rows"]), int(request["cols"])
        if not (0 < rows < 10000 and 0 < cols < 10000):
            return refusal(ErrorCode.INVALID_INPUT, "bad window size")
        set_window_size(self.master, rows, cols)
        return {"ok": True}

    def _attach(self, _request: Request) -> Reply:
        """The stream from now on, and the recent output to redraw the screen from, without
        the terminal queries someone already answered (the live stream keeps its own)."""
        recent = without_queries(bytes(self._recent[-RECENT_BYTES:]))
        return {"ok": True, "stream": True, "recent": encode(recent)}

