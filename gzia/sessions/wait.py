"""``session wait``: block until sessions end, watching only their own record files.

A session ends when its owner writes the final record (a rename: the file's inode and
mtime change) or, when the owner died without writing, when reconcile finds it ``lost``.
So each tick stats the awaited record files only (never the whole store) and re-reads a
record only when its file changed; the owners' liveness is checked on a slower beat.
Nothing here signals a session: stopping the wait leaves every session as it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gzia.contract import NotFoundError
from gzia.sessions.reconcile import get_session, reconcile
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore

TICK_S = 0.02
"""How often the awaited record files are stat'ed (the latency from a session's end)."""
LIVENESS_EVERY_S = 1.0
"""How often a record that did not change is reconciled (an owner that died unwritten)."""

FileMark = tuple[int, int, int, int] | None


@dataclass(frozen=True)
class WaitResult:
    records: list[SessionRecord | None]
    """In the order asked for; ``None`` for a session deleted while awaited."""
    timed_out: bool = False

    @property
    def ended(self) -> list[SessionRecord | None]:
        return [r for r in self.records if r is None or not r.is_running]

    @property
    def all_succeeded(self) -> bool:
        """Every session that ended completed with exit code 0, and one at least ended."""
        ended = self.ended
        return bool(ended) and all(r is not None and succeeded(r) for r in ended)

    @property
    def agent_exit_code(self) -> int:
        """``session wait --exit-code``: 0 when every session that ended succeeded, else the
        own code (``exit_code``: 128 + N for a signal N) of the first, in the order asked
        for, that did not; 1 for one without a code (lost, deleted, or exit 0 but not
        ``completed``)."""
        for record in self.ended:
            if record is None or not succeeded(record):
                return (record.exit_code if record is not None and record.exit_code
                        else 1)
        return 0 if self.ended else 1

    def to_json(self, ids: Sequence[str]) -> dict[str, object]:
        return {"all_succeeded": self.all_succeeded, "timed_out": self.timed_out,
                "sessions": [outcome_of(session_id, r) for session_id, r in
                             zip(ids, self.records, strict=True)]}


def succeeded(record: SessionRecord) -> bool:
    return record.status == Status.COMPLETED and record.exit_code == 0


def outcome_of(session_id: str, record: SessionRecord | None) -> dict[str, object]:
    if record is None:
        return {"id": session_id, "status": None, "exit_code": None, "end_reason": None,
                "deleted": True}
    return {"id": record.id, "status": record.status, "exit_code": record.exit_code,
            "end_reason": record.end_reason, "deleted": False}


def resolve_all(store: SessionStore, refs: Sequence[str]) -> list[SessionRecord]:
    """Each session asked for, reconciled, in order, once each (``NOT_FOUND`` for any
    unknown id, before waiting on the others)."""
    records: dict[str, SessionRecord] = {}
    for ref in refs:
        record = get_session(store, ref)
        records.setdefault(record.id, record)
    return list(records.values())


Reached = Callable[[SessionRecord | None], bool]
"""Whether an awaited session is where the wait wants it (``None``: deleted)."""


def ended(record: SessionRecord | None) -> bool:
    return record is None or not record.is_running


def wait_for(store: SessionStore, records: list[SessionRecord], *, any_one: bool = False,
             timeout: float | None = None,
             clock: Callable[[], float] = time.monotonic, reached: Reached = ended) -> WaitResult:
    """Block until every session ended (or one, with ``any_one``), or ``timeout`` passed;
    ``reached`` waits for something else than the end (:mod:`gzia.sessions.state_wait`)."""
    watched = _Watched(store, records, reached)
    deadline = None if timeout is None else clock() + timeout
    next_liveness = clock() + LIVENESS_EVERY_S
    while not watched.done(any_one):
        now = clock()
        if deadline is not None and now >= deadline:
            return WaitResult(watched.records, timed_out=True)
        time.sleep(TICK_S if deadline is None else max(0.0, min(TICK_S, deadline - now)))
        recheck = clock() >= next_liveness
        if recheck:
            next_liveness = clock() + LIVENESS_EVERY_S
        watched.refresh(recheck_liveness=recheck)
    return WaitResult(watched.records)


class _Watched:
    """The awaited records and the last seen mark of each one's file."""

    def __init__(self, store: SessionStore, records: list[SessionRecord],
                 reached: Reached) -> None:
        self.store = store
        self.reached = reached
        self.records: list[SessionRecord | None] = list(records)
        self.paths = [store.record_path(r.id) for r in records]
        self.marks = [_mark(path) for path in self.paths]

    def done(self, any_one: bool) -> bool:
        done = [self.reached(r) for r in self.records]
        return any(done) if any_one else all(done)

    def refresh(self, *, recheck_liveness: bool) -> None:
        for index, record in enumerate(self.records):
            if record is None or not record.is_running:
                continue
            mark = _mark(self.paths[index])
            if mark != self.marks[index]:
                self.marks[index] = mark
                self.records[index] = self._reload(record.id)
            elif recheck_liveness:
                self.records[index] = reconcile(self.store, record)

    def _reload(self, session_id: str) -> SessionRecord | None:
        try:
            return reconcile(self.store, self.store.load(session_id))
        except NotFoundError:
            return None


def _mark(path: Path) -> FileMark:
    """What changes when a record is rewritten (a rename gives a new inode)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_mtime_ns, info.st_size, info.st_ctime_ns
