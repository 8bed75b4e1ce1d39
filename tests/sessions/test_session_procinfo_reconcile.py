from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from gzia.sessions.reconcile import get_session, list_sessions, reconcile
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.endreason import EndReason
from gzia.supervisor.procinfo import is_process_alive, process_start_time


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield child
    child.kill()
    child.wait()


def _zombie() -> subprocess.Popen[bytes]:
    child = subprocess.Popen(["true"])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f"/proc/{child.pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                return child
        time.sleep(0.01)
    raise AssertionError("child never became a zombie")


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_live_process_with_its_start_time(sleeper: subprocess.Popen[bytes]) -> None:
    start = process_start_time(sleeper.pid)
    assert start is not None and start.isdigit()
    assert is_process_alive(sleeper.pid, start)
    assert is_process_alive(sleeper.pid)
    assert process_start_time(os.getpid()) != start or os.getpid() == sleeper.pid


def test_reused_pid_is_not_the_recorded_process(sleeper: subprocess.Popen[bytes]) -> None:
    assert not is_process_alive(sleeper.pid, "1")


def test_dead_and_invalid_pids() -> None:
    pid = _dead_pid()
    assert not is_process_alive(pid)
    assert process_start_time(pid) is None
    assert not is_process_alive(0)
    assert not is_process_alive(-5)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_zombie_is_not_alive() -> None:
    child = _zombie()
    try:
        assert not is_process_alive(child.pid)
    finally:
        child.wait()


def _running(store: SessionStore, session_id: str, pid: int, start: str | None,
             started_at: str = "2026-01-01T00:00:00Z") -> None:
    store.create(SessionRecord(id=session_id, pid=pid, pid_start_time=start,
                               started_at=started_at, working_dir="/w"))


def test_running_record_whose_process_died_becomes_lost(store: SessionStore) -> None:
    _running(store, "abcdef01", _dead_pid(), None)
    record = get_session(store, "abcdef01")
    assert (record.status, record.end_reason) == (Status.LOST, EndReason.LOST)
    assert record.finished_at is not None
    assert record.duration_ms is None  # when it ended is unknown
    assert store.load("abcdef01").status == Status.LOST  # written, not only returned


def test_running_record_with_reused_pid_becomes_lost(
    store: SessionStore, sleeper: subprocess.Popen[bytes]
) -> None:
    _running(store, "abcdef01", sleeper.pid, "12")
    assert list_sessions(store).records[0].status == Status.LOST


def test_live_running_record_and_finished_records_are_untouched(
    store: SessionStore, sleeper: subprocess.Popen[bytes]
) -> None:
    _running(store, "abcdef01", sleeper.pid, process_start_time(sleeper.pid))
    _running(store, "abcdef02", 0, None, now_rfc3339())  # still being set up
    store.create(SessionRecord(id="abcdef03", pid=_dead_pid(), status=Status.COMPLETED))
    before = {p.name: p.read_bytes() for p in store.dir.glob("*.json")}
    statuses = {r.id: r.status for r in list_sessions(store).records}
    assert statuses == {"abcdef01": "running", "abcdef02": "running", "abcdef03": "completed"}
    assert {p.name: p.read_bytes() for p in store.dir.glob("*.json")} == before


def test_reconcile_does_not_overwrite_a_final_write_made_meanwhile(store: SessionStore) -> None:
    _running(store, "abcdef01", _dead_pid(), None)
    stale = store.load("abcdef01")
    store.update("abcdef01", lambda r: setattr(r, "status", Status.COMPLETED))
    assert reconcile(store, stale).status == Status.COMPLETED


def test_the_ps_reader_used_off_linux(sleeper: subprocess.Popen[bytes]) -> None:
    """macOS has no /proc: the same answers come from ``ps -o stat=,lstart=``."""
    from gzia.supervisor.procinfo import _read_with_ps

    state = _read_with_ps(sleeper.pid)
    assert state is not None and not state.zombie
    assert len(state.start_time.split()) == 5  # e.g. "Sun Nov 29 16:27:11 2026"
    assert _read_with_ps(sleeper.pid) == state  # stable: it identifies the process
    assert _read_with_ps(_dead_pid()) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="makes a zombie via /proc")
def test_the_ps_reader_sees_zombies() -> None:
    from gzia.supervisor.procinfo import _read_with_ps

    child = _zombie()
    try:
        state = _read_with_ps(child.pid)
        assert state is not None and state.zombie
    finally:
        child.wait()


def test_reconcile_when_the_record_cannot_be_written_still_reports_lost(
    store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gzia.sessions import reconcile as module

    _running(store, "abcdef01", _dead_pid(), None)
    before = (store.dir / "abcdef01.json").read_bytes()
    monkeypatch.setattr(module, "RECONCILE_LOCK_TIMEOUT", 0.05)
    with store.lock("abcdef01"):  # a kill or the exit handler is writing it right now
        record = get_session(store, "abcdef01")
    assert record.status == Status.LOST
    assert (store.dir / "abcdef01.json").read_bytes() == before
    assert get_session(store, "abcdef01").status == Status.LOST  # written by the next reader
    assert store.load("abcdef01").status == Status.LOST


@pytest.mark.parametrize(("pid", "started_at"), [
    (2**31, "2026-01-01T00:00:00Z"), (10**20, "2026-01-01T00:00:00Z"), (-1, now_rfc3339()),
    (0, "2999-06-01T00:00:00Z"), (0, "not a date"), (0, ""),
], ids=["pid-2^31", "pid-10^20", "pid-negative-started-now", "started-in-the-future",
        "started-not-a-date", "started-empty"])  # stable ids: one test list for every run
def test_running_records_no_process_could_match_become_lost(
    store: SessionStore, pid: int, started_at: str
) -> None:
    """A corrupt or hand-edited record never blocks list, kill or delete forever."""
    store.create(SessionRecord(id="abcdef01", pid=pid, status=Status.RUNNING,
                               started_at=started_at))
    assert list_sessions(store).records[0].status == Status.LOST
    assert store.load("abcdef01").status == Status.LOST


def test_a_record_still_being_set_up_stays_running(store: SessionStore) -> None:
    store.create(SessionRecord(id="abcdef01", pid=0, status=Status.RUNNING,
                               started_at=now_rfc3339()))
    assert list_sessions(store).records[0].status == Status.RUNNING


def test_no_process_has_a_pid_beyond_pid_t() -> None:
    assert not is_process_alive(2**31)
    assert not is_process_alive(10**20)


def test_a_listing_writes_reconciled_records_within_its_budget_only(
    store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the budget, stale records are reported lost and left for later readers."""
    from gzia.sessions import reconcile as module

    dead = _dead_pid()
    ids = [f"abcdef{n:02x}" for n in range(20)]
    for session_id in ids:
        _running(store, session_id, dead, None)
    before = {i: (store.dir / f"{i}.json").read_bytes() for i in ids}
    monkeypatch.setattr(module, "LIST_WRITE_BUDGET_S", 0.0)
    listed = list_sessions(store)
    assert {r.id: r.status for r in listed.records} == dict.fromkeys(ids, Status.LOST)
    assert all(r.end_reason == EndReason.LOST and r.finished_at for r in listed.records)
    assert listed.texts == {}  # nothing printed as the stale text read
    assert {i: (store.dir / f"{i}.json").read_bytes() for i in ids} == before
    monkeypatch.setattr(module, "LIST_WRITE_BUDGET_S", 60.0)
    assert {r.status for r in list_sessions(store).records} == {Status.LOST}
    assert {store.load(i).status for i in ids} == {Status.LOST}  # the next listing wrote
