"""The server's input: one JSON-RPC message per line, read in bounded memory.

The SDK's stdio transport reads each line whole, however long (a 200 MB line held 2 GB
and the server fell silent), and takes a message with an invalid ``id`` for a
notification, which is never answered. So the server reads stdin itself: a line longer
than :data:`~gzia.orchy.limits.MAX_MESSAGE_BYTES` is skipped as it streams in (never
held) and answered with ``-32600``, an invalid ``id`` too; the SDK's transport still
writes stdout. While the server reads, file descriptor 0 points at the null device (as
the SDK's transport does when it reads): tools and their programs read end of input,
never the protocol.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import anyio
import anyio.to_thread

from gzia.orchy.limits import MAX_MESSAGE_BYTES

READ_CHUNK = 64 * 1024
PARSE_ERROR = -32700
INVALID_REQUEST = -32600


@dataclass(frozen=True)
class Oversized:
    """A line longer than the limit, skipped: only its size is known."""

    size: int


class Malformed(Exception):
    """A line that is not a message the server can answer: a JSON-RPC error, ``id`` null."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


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


async def read_messages(fd: int, limit: int = MAX_MESSAGE_BYTES) -> AsyncIterator[object]:
    """Each message of ``fd`` (an SDK model), or the :class:`Malformed` that answers a
    line that is not one."""
    async for line in read_lines(fd, limit):
        try:
            yield parse_message(line) if isinstance(line, bytes) else _oversized(line, limit)
        except Malformed as bad:
            yield bad


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


def parse_message(line: bytes) -> object:
    """The JSON-RPC message of ``line`` (an SDK model), or :class:`Malformed`."""
    import mcp_types as types

    text = line.decode("utf-8", "replace")
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as exc:
        raise _malformed(exc) from None
    if isinstance(message, types.JSONRPCNotification) and _has_id(text):
        raise Malformed(INVALID_REQUEST, "Invalid Request: the id must be a string or an integer")
    return message


def _oversized(line: Oversized, limit: int) -> Malformed:
    return Malformed(INVALID_REQUEST, f"Invalid Request: the message is {line.size} bytes, "
                                      f"more than the {limit} a message may hold")


def _has_id(text: str) -> bool:
    """A notification has no ``id``: one that has is a request whose ``id`` the SDK
    refused (an object, an array, a boolean, a fraction, null)."""
    data = json.loads(text)
    return isinstance(data, dict) and "id" in data


def _malformed(exc: Exception) -> Malformed:
    errors = getattr(exc, "errors", None)
    kinds = {e.get("type") for e in errors()} if callable(errors) else set()
    if "json_invalid" in kinds:
        return Malformed(PARSE_ERROR, "Parse error: the line is not JSON")
    return Malformed(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")
