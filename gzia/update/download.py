"""Download: stream a release file to disk, hashing while streaming, bounded in size."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from gzia.contract import IntegrityError, NetworkError
from gzia.i18n import N_
from gzia.update.client import Credentials, open_stream, translate_errors
from gzia.update.errors import SourceFailure
from gzia.update.model import ReleaseFile

if TYPE_CHECKING:
    import httpx

SMALL_LIMIT = 1 << 20  # SHA256SUMS and its signature
PYZ_LIMIT = 1 << 30  # when the registry does not say the size
Progress = Callable[[int, "int | None"], None]


def too_large(name: str, limit: int) -> IntegrityError:
    return IntegrityError(N_("{file} is larger than expected ({limit} bytes); download stopped"),
                          file=name, limit=limit, details={"file": name, "limit": limit})


def write_chunks(chunks: Iterable[bytes], out: BinaryIO, digest: Any, *, name: str,
                 limit: int, total: int | None, progress: Progress | None) -> int:
    """Write ``chunks`` to ``out`` (fsynced at the end), hashing them into ``digest``;
    stops with ``INTEGRITY`` as soon as more than ``limit`` bytes came. Returns the size.
    One copy loop for a download and for a release read from disk (``update --from``)."""
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise too_large(name, limit)
        digest.update(chunk)
        out.write(chunk)
        if progress is not None:
            progress(size, total)
    out.flush()
    os.fsync(out.fileno())
    return size


def _failed(file: ReleaseFile, failure: SourceFailure) -> NetworkError:
    return NetworkError(N_("download of {file} failed: {reason}"), file=file.name,
                        reason=failure.message,
                        details={"file": file.name, "reason": failure.reason_code})


def fetch_small(client: httpx.Client, file: ReleaseFile, credentials: Credentials | None,
                limit: int = SMALL_LIMIT) -> bytes:
    chunks: list[bytes] = []
    received = 0
    try:
        with open_stream(client, file.url, credentials) as response, \
                translate_errors(file.url, client):
            for chunk in response.iter_bytes():
                received += len(chunk)
                if received > limit:
                    raise too_large(file.name, limit)
                chunks.append(chunk)
    except SourceFailure as failure:
        raise _failed(file, failure) from failure
    return b"".join(chunks)


class BackgroundSha256:
    """SHA-256 computed on a second thread while the first one reads and writes.

    hashlib and socket reads both release the GIL, so hashing overlaps the download
    instead of adding to it (bench/download.py: about 25% faster on 100 MB). The queue
    is bounded: memory stays flat whatever the speeds.
    """

    QUEUE_CHUNKS = 2

    def __init__(self) -> None:
        import queue
        import threading

        self._sha = hashlib.sha256()
        self._chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=self.QUEUE_CHUNKS)
        self._thread = threading.Thread(target=self._consume, name="sha256", daemon=True)

    def __enter__(self) -> BackgroundSha256:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._finish()

    def _consume(self) -> None:
        while (chunk := self._chunks.get()) is not None:
            self._sha.update(chunk)

    def _finish(self) -> None:
        if self._thread.is_alive():
            self._chunks.put(None)
            self._thread.join()

    def update(self, chunk: bytes) -> None:
        self._chunks.put(chunk)

    def hexdigest(self) -> str:
        self._finish()
        return self._sha.hexdigest()


def stream_to_file(client: httpx.Client, file: ReleaseFile, credentials: Credentials | None,
                   destination: Path, *, progress: Progress | None = None) -> tuple[str, int]:
    """Write ``file`` to ``destination`` (fsynced); returns (sha256 hex, size).

    Stops as soon as more bytes arrive than the registry announced (or than
    :data:`PYZ_LIMIT` when it announced nothing).
    """
    limit = file.size if file.size is not None else PYZ_LIMIT
    try:
        with open_stream(client, file.url, credentials) as response, \
                destination.open("wb") as out, translate_errors(file.url, client), \
                BackgroundSha256() as digest:
            announced = int(response.headers.get("content-length") or -1)
            if announced > limit:
                raise too_large(file.name, limit)
            total = file.size if file.size is not None else (announced if announced >= 0 else None)
            received = write_chunks(response.iter_bytes(), out, digest, name=file.name,
                                    limit=limit, total=total, progress=progress)
    except SourceFailure as failure:
        raise _failed(file, failure) from failure
    return digest.hexdigest(), received
