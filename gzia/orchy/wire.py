"""The server's input: one JSON-RPC message per line, read in bounded memory.

The SDK's stdio transport reads each line whole, however long (a 200 MB line held 2 GB
and the server fell silent). So the server reads stdin itself, with :func:`read_lines`:
a line longer than :data:`~gzia.orchy.limits.MAX_MESSAGE_BYTES` is skipped as it streams
in (never held), and the server answers it with ``-32600``; the SDK's transport still
writes stdout. While the server reads, file descriptor 0 points at the null device (as
the SDK's transport does when it reads): tools and their programs read end of input,
never the protocol.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import anyio
import anyio.to_thread

from gzia.orchy.limits import MAX_MESSAGE_BYTES

READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Oversized:
    """A line longer than the limit, skipped: only its size is known."""

    size: int


@contextlib.contextmanager
def claimed_stdin() -> Iterator[int]:
    """A private descriptor of the protocol's input; meanwhile fd 0 is the null device.
    Restored on the way out; the private descriptor stays open, as a reader blocked on
    it may outlive the server (closing it would hand its number to another file)."""
    try:
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:  # no stdin at all: nothing to read
        yield -1
        return
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield private
    finally:
        os.dup2(private, 0)


async def read_lines(fd: int, limit: int) -> AsyncIterator[bytes | Oversized]:
    """Each line of ``fd`` (without its newline; the last one may lack it), or
    :class:`Oversized` for a line longer than ``limit`` bytes. Holds at most ``limit``
    bytes plus one chunk. Reads in a thread of its own, so tool calls that hold every
    worker thread never keep the server from reading (a cancellation, say)."""
    reader = anyio.CapacityLimiter(1)
    pending, skipped = bytearray(), 0
    while chunk := await anyio.to_thread.run_sync(_read, fd, limiter=reader,
                                                  abandon_on_cancel=True):
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            piece, start = chunk[start:end], end + 1
            if skipped or len(pending) + len(piece) > limit:
                yield Oversized(skipped + len(pending) + len(piece))
            else:
                yield bytes(pending + piece)
            pending, skipped = bytearray(), 0
        rest = chunk[start:]
        if skipped or len(pending) + len(rest) > limit:
            pending, skipped = bytearray(), skipped + len(pending) + len(rest)
        else:
            pending += rest
    if skipped or pending:
        yield Oversized(skipped) if skipped else bytes(pending)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, READ_CHUNK)
    except OSError:  # a closed or broken input ends it
        return b""


def oversized_text(size: int, limit: int = MAX_MESSAGE_BYTES) -> str:
    """What a line of ``size`` bytes over ``limit`` is answered (with ``-32600``)."""
    return (f"Invalid Request: the message is {size} bytes, "
            f"more than the {limit} a message may hold")
