"""The session store: ``.harness/sessions/<id>.json`` plus events, logs and lock files.

Every write is atomic (temporary file, fsync, rename, fsync of the directory) and
happens under a per-record lock (``flock`` on ``<id>.lock``), so two writers racing on
one record (a ``kill`` and the exit handler) each see the other's result: nothing is
lost and no reader ever sees half a file. Readers need no lock.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.contract import ConflictError, InvalidInputError, IOFailure, LockedError, NotFoundError
from gzia.filelock import hold_lock, is_same_file, lock_fd
from gzia.i18n import N_
from gzia.sessions.ids import is_session_id, validate_session_id, validate_session_ref
from gzia.sessions.project import Project
from gzia.sessions.record import (
    SCHEMA_VERSION,
    RecordFormatError,
    SessionRecord,
    json_bytes,
    now_rfc3339,
    parse_rfc3339,
)
from gzia.sessions.symlinks import refuse_symlink, refuse_symlinked_layout, symlink_refusal

LOCK_TIMEOUT = 10.0
Mutation = Callable[[SessionRecord], SessionRecord | None]

STAMP_SETTLE_NS = 1_000_000_000
"""How old a directory's modification time must be before :meth:`SessionStore.listing_stamp`
trusts it to change with the next write."""
MANIFEST_SUFFIX = ".manifest.json"
"""``<id>.manifest.json``: what profiles projected into the session's worktree
(:mod:`gzia.sessions.projection`); not a record."""
EXCLUDES_SUFFIX = ".exclude"
"""``<id>.exclude``: the excludes file the session's agent's git reads."""
INSTRUCTIONS_SUFFIX = ".instructions.md"
"""``<id>.instructions.md``: profile instructions an agent reads through its configuration."""
PROJECTED_SUFFIX = ".projected"
"""``<id>.projected``: every path any run of the session projected (``session merge``
refuses a branch that touches one)."""


@dataclass(frozen=True)
class UnreadableRecord:
    path: str
    error: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "error": self.error}


@dataclass
class ListResult:
    records: list[SessionRecord] = field(default_factory=list)
    unreadable: list[UnreadableRecord] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    """By id: the text a record was read from, where it is already the record's
    :meth:`~SessionRecord.to_text` (drop it when the record changes)."""


class SessionStore:
    def __init__(self, project: Project) -> None:
        refuse_symlinked_layout(project)  # before anything is read or written there
        self.project = project
        self.dir = project.sessions_dir

    # -- paths (every id is validated before a path is built) -------------------------
    def record_path(self, session_id: str) -> Path:
        return self.dir / f"{validate_session_id(session_id)}.json"

    def events_path(self, session_id: str) -> Path:
        return self.dir / f"{validate_session_id(session_id)}.events.jsonl"

    def lock_path(self, session_id: str) -> Path:
        return self.dir / f"{validate_session_id(session_id)}.lock"

    def log_path(self, session_id: str) -> Path:
        return self.project.logs_dir / f"{validate_session_id(session_id)}.log"

    # -- reading -------------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """A full id from a full id or a unique prefix (4+ hex characters)."""
        candidate = validate_session_ref(ref)
        if is_session_id(candidate):
            return candidate
        matches = sorted(
            name[:-5] for name in _list_names(self.dir)
            if name.endswith(".json") and name.startswith(candidate) and is_session_id(name[:-5])
        )
        if not matches:
            raise _not_found(candidate)
        if len(matches) > 1:
            raise InvalidInputError(
                N_("session id prefix '{id}' is ambiguous: {matches}"), id=candidate,
                matches=", ".join(matches),
                details={"id": candidate, "matches": matches},
            )
        return matches[0]

    def exists(self, session_id: str) -> bool:
        return self.record_path(session_id).is_file()

    def load(self, session_id: str) -> SessionRecord:
        path = self.record_path(session_id)
        try:
            return _decode(_read_file(path), path.name[:-5])[0]
        except FileNotFoundError:
            raise _not_found(session_id) from None
        except SymlinkError:
            raise symlink_refusal(path) from None
        except (OSError, ValueError) as exc:  # RecordFormatError is a ValueError
            raise IOFailure(
                N_("session record {path} is unreadable: {detail}"), path=str(path),
                detail=str(exc),
                hint_key=N_("fix that file, or remove it and run gz-ia session prune to remove the "
                            "session's worktree and branch"),
                details={"path": str(path), "error": str(exc)},
            ) from exc

    def listing_stamp(self) -> int | None:
        """What changes whenever a record is created, written or removed: the directory's
        modification time (every write renames a file into it, :meth:`_write`). None when
        it proves nothing: no directory yet, or a change less than :data:`STAMP_SETTLE_NS`
        ago (a later write within the file system's clock tick would keep the same time).
        Events and logs are appended in place and do not change it."""
        try:
            changed_ns = self.dir.stat().st_mtime_ns
        except OSError:
            return None
        return None if time.time_ns() - changed_ns < STAMP_SETTLE_NS else changed_ns

    def list(self) -> ListResult:
        """Every record, newest first; files that do not parse are reported, not dropped.

        Files are opened relative to the directory's descriptor and read with plain
        ``os.read`` calls: at thousands of records the per-file overhead of ``open()``
        (path joins, buffered file objects) would cost more than parsing them.
        """
        result = ListResult()
        try:
            dir_fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            return result
        try:
            for name in os.listdir(dir_fd):  # noqa: PTH208 - names of an open directory
                if name.endswith(".json") and not name.endswith(MANIFEST_SUFFIX):
                    self._read_into(result, dir_fd, name)
        finally:
            os.close(dir_fd)
        result.records.sort(key=start_key, reverse=True)
        return result

    def _read_into(self, result: ListResult, dir_fd: int, name: str) -> None:
        try:
            if not is_session_id(name[:-5]):  # e.g. an upper-case copy: no command reaches it
                raise RecordFormatError("file name is not a session id")
            record, text = _decode(_read_file(name, dir_fd), name[:-5])
        except (OSError, ValueError) as exc:  # RecordFormatError is a ValueError
            result.unreadable.append(UnreadableRecord(str(self.dir / name), str(exc)))
            return
        result.records.append(record)
        if text is not None:
            result.texts[record.id] = text

    # -- writing -------------------------------------------------------------------------
    def create(self, record: SessionRecord) -> SessionRecord:
        """Write a new record; ``CONFLICT`` if one with this id exists already."""
        with self.lock(record.id):
            if self.record_path(record.id).exists():
                raise ConflictError(N_("session '{id}' already exists"), id=record.id,
                                    details={"id": record.id})
            self._write(record)
        return record

    def update(
        self, session_id: str, mutate: Mutation, *, timeout: float = LOCK_TIMEOUT
    ) -> SessionRecord:
        """Read, change and write one record atomically under its lock.

        ``mutate`` changes the record in place (or returns a replacement); if it raises,
        nothing is written.
        """
        with self.lock(session_id, timeout):
            record = self.load(session_id)
            changed = mutate(record)
            record = changed if changed is not None else record
            self._write(record)
        return record

    def mcp_config_path(self, session_id: str) -> Path:
        """The agent's ``mcpServers`` file: outside the worktree, under ``.harness/mcp``."""
        return self.project.harness_dir / "mcp" / f"{validate_session_id(session_id)}.json"

    def mcp_log_path(self, session_id: str) -> Path:
        """What the session's warm MCP server writes on stderr (gzia.sessions.warm_orchy)."""
        return self.project.harness_dir / "mcp" / f"{validate_session_id(session_id)}.log"

    def state_plugin_path(self, session_id: str) -> Path:
        """The agent's state plugin (opencode): outside the worktree, under ``.harness/hooks``."""
        return self.project.harness_dir / "hooks" / f"{validate_session_id(session_id)}.mjs"

    def files_of(self, session_id: str) -> tuple[Path, ...]:
        """The session's files in the store: events, log, projection manifest, excludes,
        instructions and projected paths, MCP configuration and server log, state plugin,
        record, lock (in that order)."""
        return (self.events_path(session_id), self.log_path(session_id),
                self.dir / f"{session_id}{MANIFEST_SUFFIX}",
                self.dir / f"{session_id}{EXCLUDES_SUFFIX}",
                self.dir / f"{session_id}{INSTRUCTIONS_SUFFIX}",
                self.dir / f"{session_id}{PROJECTED_SUFFIX}",
                self.dir / f"{session_id}.life.lock",  # gzia.sessions.pause.life_lock
                self.mcp_config_path(session_id), self.mcp_log_path(session_id),
                self.state_plugin_path(session_id),
                self.record_path(session_id), self.lock_path(session_id))

    def delete(self, session_id: str) -> None:
        """Remove the record, its events and its log (the worktree is not this store's);
        a symbolic link among them is refused before anything is removed."""
        with self.lock(session_id):
            if not self.record_path(session_id).exists():
                raise _not_found(session_id)
            for path in self.files_of(session_id):
                refuse_symlink(path)
            for path in self.files_of(session_id):
                path.unlink(missing_ok=True)  # the lock file last, while still held

    @contextlib.contextmanager
    def lock(self, session_id: str, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
        """Hold the record's exclusive lock (``LOCKED``, retryable, after ``timeout``).

        Lock files are removed under their lock (``delete``, ``prune``): a writer that
        was waiting on one meanwhile removed opens the new one (:func:`hold_lock`).
        """
        path = self.lock_path(session_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = hold_lock(path, time.monotonic() + timeout, opener=_open_lock_file, locked=lambda: (
            LockedError(N_("session '{id}' is locked by another gz-ia process"), id=session_id,
                        details={"id": session_id})))
        try:
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def drop_orphan_lock(self, session_id: str, *, dry_run: bool = False) -> bool:
        """Remove ``<id>.lock`` if it has no record and nobody holds it; whether it did.

        It is removed while locked, and :meth:`lock` re-opens a file removed under it, so
        a session being created at this moment simply gets a new lock file. Anything but a
        regular file under that name is left alone.
        """
        path = self.lock_path(session_id)
        try:
            fd, _ = open_regular(path, os.O_RDWR)
        except OSError:
            return False  # gone already, or not a lock file of gz-ia's
        try:
            if not lock_fd(fd, deadline=0.0):
                return False  # held: its session is being written right now
            if self.record_path(session_id).exists() or not is_same_file(fd, path):
                return False
            if not dry_run:
                path.unlink()
            return True
        finally:
            os.close(fd)

    def _write(self, record: SessionRecord) -> None:
        record.schema_version = max(record.schema_version, SCHEMA_VERSION)
        record.updated_at = now_rfc3339()
        write_atomic(self.record_path(record.id), json_bytes(record.to_text() + "\n"))


def _open_lock_file(path: Path) -> int:
    try:
        return open_regular(path, os.O_RDWR | os.O_CREAT)[0]
    except SymlinkError:
        raise symlink_refusal(path) from None


def _list_names(directory: Path) -> list[str]:
    try:
        return os.listdir(directory)  # noqa: PTH208 - plain names, fast for 10,000 records
    except FileNotFoundError:
        return []


READ_CHUNK = 1 << 16
MAX_RECORD_BYTES = 64 << 20
"""A record is a few KiB; anything this large is not one (and is not read into memory)."""


class NotRegularFileError(OSError):
    """A name in the store that is not a regular file: a FIFO, a device, a directory."""


class SymlinkError(NotRegularFileError):
    """A name in the store that is a symbolic link (never followed: see
    :mod:`gzia.sessions.symlinks`)."""


def open_regular(name: str | Path, flags: int, *, dir_fd: int | None = None,
                 mode: int = 0o644) -> tuple[int, os.stat_result]:
    """Open one of the store's files (``name`` relative to ``dir_fd`` when given).

    The one rule for every file gz-ia keeps in ``.harness/sessions``: it is opened with
    O_NONBLOCK, so a FIFO planted under its name can never block a command forever, and
    with O_NOFOLLOW, so a symbolic link is :class:`SymlinkError` and never leads a read
    or a write elsewhere; anything but a regular file (a FIFO, a device, a directory) is
    :class:`NotRegularFileError` before a byte is read or written.
    """
    try:
        fd = os.open(name, flags | os.O_NONBLOCK | os.O_NOFOLLOW, mode, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SymlinkError(errno.ELOOP, "a symbolic link (never followed)", str(name)) from exc
        if exc.errno in {errno.ENXIO, errno.EISDIR}:  # a FIFO nobody reads; a socket; a dir
            raise NotRegularFileError(errno.EINVAL, "not a regular file", str(name)) from exc
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotRegularFileError(errno.EINVAL, "not a regular file", str(name))
    return fd, info


def _read_file(name: str | Path, dir_fd: int | None = None) -> bytes:
    """The whole of a regular file of a record's size (see :func:`open_regular`)."""
    fd, info = open_regular(name, os.O_RDONLY, dir_fd=dir_fd)
    try:
        if info.st_size > MAX_RECORD_BYTES:
            raise OSError(errno.EFBIG, "record file too large", str(name))
        size = info.st_size
        data = os.read(fd, size + 1)
        if len(data) == size:  # all of it, as the file system says: no second read
            return data
        chunks, total = [data], len(data)
        while chunk := os.read(fd, READ_CHUNK):  # it grew, or a short read: read to the end
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_RECORD_BYTES:
                raise OSError(errno.EFBIG, "record file too large", str(name))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _decode(raw: bytes, file_id: str) -> tuple[SessionRecord, str | None]:
    """The record stored as ``<file_id>.json`` and, when it is already in its written
    form, its text (see ListResult). A record naming another id is not this session's:
    acting on it (delete, merge) would act on that other session."""
    record, text = SessionRecord.from_text(raw.decode("utf-8").removeprefix("\ufeff"))
    if record.id != file_id:
        raise RecordFormatError("id does not match file name")
    return record, text


def start_key(record: SessionRecord) -> tuple[str, str]:
    """A sort key for ``started_at`` in UTC: (date and time to the second, fraction).

    UTC stamps (``...Z``, what gz-ia writes) need no parsing: a decimal fraction such as
    ``.5`` or ``.123456789`` orders correctly as text. Other offsets are converted.
    """
    stamp = record.started_at
    if len(stamp) >= 20 and stamp[-1] == "Z" and stamp[10] == "T":
        return stamp[:19], stamp[19:-1]
    from datetime import UTC

    try:
        moment = parse_rfc3339(stamp).astimezone(UTC)
    except ValueError:
        return "", ""
    return moment.strftime("%Y-%m-%dT%H:%M:%S"), f".{moment.microsecond:06d}"


def _not_found(session_id: str) -> NotFoundError:
    return NotFoundError(
        N_("session '{id}' not found"), id=session_id, hint_key=N_("gz-ia session list"),
        details={"id": session_id},
    )
