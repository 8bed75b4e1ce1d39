from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.contract import (
    ConflictError,
    InvalidInputError,
    IOFailure,
    LockedError,
    NotFoundError,
    SafetyBlockError,
)
from gzia.i18n import N_
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore
from tests.sessions.session_testkit import COMPLETED_ISOLATED, RUNNING_DIRECT, go_record


def _record(session_id: str, started: str = "2026-01-01T00:00:00Z") -> SessionRecord:
    return SessionRecord(id=session_id, started_at=started, working_dir="/w")


def test_create_load_round_trip(store: SessionStore) -> None:
    created = store.create(_record("abcdef01"))
    loaded = store.load("abcdef01")
    assert loaded == created
    assert loaded.updated_at is not None
    path = store.dir / "abcdef01.json"
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    assert path.read_text() == loaded.to_text() + "\n"  # one line, every field in order
    assert list(json.loads(path.read_text())) == list(loaded.to_json())


def test_list_keeps_the_text_of_records_in_their_written_form(store: SessionStore) -> None:
    written = store.create(SessionRecord(id="abcdef01", started_at="2026-01-01T00:00:00Z",
                                         initial_prompt="añade «tests» 🚀"))
    result = store.list()
    assert result.records == [written]
    assert result.texts == {"abcdef01": (store.dir / "abcdef01.json").read_text()[:-1]}
    assert json.loads(result.texts["abcdef01"]) == written.to_json()


def _written(data: dict[str, object]) -> str:
    return json.dumps(data)


OTHER_FORMS: dict[str, Callable[[dict[str, object]], str]] = {
    "indented": lambda d: json.dumps(d, indent=2),
    "extra field": lambda d: _written({**d, "added_by_a_newer_version": 1}),
    "missing field": lambda d: _written({k: v for k, v in d.items() if k != "merged_commit"}),
    "reordered": lambda d: _written(dict(reversed(d.items()))),
    "two lines": lambda d: _written(d).replace(', "pid"', ',\n"pid"'),
    "carriage return": lambda d: _written(d).replace(', "pid"', ',\r"pid"'),
    "trailing spaces": lambda d: _written(d) + "  \t",
    "leading space": lambda d: " " + _written(d),
    "compact": lambda d: json.dumps(d, separators=(",", ":")),
    "duplicate key": lambda d: _written(d)[:-1] + ', "status": "completed"}',
}


@pytest.mark.parametrize("form", OTHER_FORMS)
def test_list_encodes_again_records_in_any_other_form(store: SessionStore, form: str) -> None:
    data = SessionRecord(id="abcdef01", started_at="2026-01-01T00:00:00Z").to_json()
    store.dir.mkdir(parents=True)
    (store.dir / "abcdef01.json").write_text(OTHER_FORMS[form](data) + "\n")
    result = store.list()
    assert [r.id for r in result.records] == ["abcdef01"]
    assert result.texts == {}


@pytest.mark.timeout(10)
def test_list_does_not_hang_on_a_fifo_named_like_a_record(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    os.mkfifo(store.dir / "0badc0de.json")
    result = store.list()
    assert [r.id for r in result.records] == ["abcdef01"]
    assert [Path(u.path).name for u in result.unreadable] == ["0badc0de.json"]
    with pytest.raises(IOFailure):
        store.load("0badc0de")


def test_list_reports_records_that_are_not_regular_files(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    (store.dir / "0badc0de.json").symlink_to("/dev/zero")
    (store.dir / "0000000d.json").mkdir()
    result = store.list()
    assert [r.id for r in result.records] == ["abcdef01"]
    assert sorted(Path(u.path).name for u in result.unreadable) == ["0000000d.json",
                                                                   "0badc0de.json"]
    with pytest.raises(IOFailure):
        store.load("0000000d")
    with pytest.raises(SafetyBlockError):  # a link is never followed, even to read
        store.load("0badc0de")


def test_a_prompt_with_undecodable_bytes_is_stored_and_read_back(store: SessionStore) -> None:
    prompt = b"arregla \xff esto".decode("utf-8", "surrogateescape")  # as argv delivers it
    store.create(SessionRecord(id="abcdef01", initial_prompt=prompt))
    assert b'"arregla \\udcff esto"' in (store.dir / "abcdef01.json").read_bytes()
    assert store.load("abcdef01").initial_prompt == prompt
    assert store.list().records[0].initial_prompt == prompt


@pytest.mark.parametrize("tail", ["x", "{}", "\n\x0b"])
def test_text_after_the_record_makes_it_unreadable(store: SessionStore, tail: str) -> None:
    record = SessionRecord(id="abcdef01", started_at="2026-01-01T00:00:00Z")
    store.dir.mkdir(parents=True)
    (store.dir / "abcdef01.json").write_text(record.to_text() + tail)
    [unreadable] = store.list().unreadable
    assert unreadable.error.startswith("Extra data: line ")
    with pytest.raises(IOFailure):
        store.load("abcdef01")


@pytest.mark.parametrize(("extra", "error"), [
    ('"zzz": NaN', "NaN is not JSON"), ('"zzz": -Infinity', "-Infinity is not JSON"),
    ('"zzz": ' + "[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
], ids=["nan", "-infinity", "nested"])  # the test's id reaches every child's environment
def test_records_json_cannot_print_are_unreadable(store: SessionStore, extra: str,
                                                  error: str) -> None:
    """Python's parser takes NaN and Infinity; --json output must stay valid JSON."""
    text = SessionRecord(id="abcdef01").to_text()[:-1] + ", " + extra + "}"
    store.dir.mkdir(parents=True)
    (store.dir / "abcdef01.json").write_text(text)
    [unreadable] = store.list().unreadable
    assert unreadable.error == error
    with pytest.raises(IOFailure):
        store.load("abcdef01")


def test_list_reads_a_record_with_a_byte_order_mark(store: SessionStore) -> None:
    record = SessionRecord(id="abcdef01", started_at="2026-01-01T00:00:00Z")
    store.dir.mkdir(parents=True)
    (store.dir / "abcdef01.json").write_bytes(b"\xef\xbb\xbf" + record.to_text().encode())
    result = store.list()
    assert (result.records, result.texts) == ([record], {"abcdef01": record.to_text()})


def test_list_reads_records_larger_than_one_read(store: SessionStore) -> None:
    prompt = "x" * 200_000
    store.create(SessionRecord(id="abcdef01", initial_prompt=prompt))
    [record] = store.list().records
    assert record.initial_prompt == prompt


def test_create_refuses_an_existing_id(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    with pytest.raises(ConflictError):
        store.create(_record("abcdef01"))


def test_load_missing_is_not_found_with_hint(store: SessionStore) -> None:
    with pytest.raises(NotFoundError) as caught:
        store.load("abcdef01")
    assert caught.value.key == N_("session '{id}' not found")
    assert caught.value.hint_key == N_("gz-ia session list")
    assert caught.value.details == {"id": "abcdef01"}


def test_traversal_ids_never_build_a_path(store: SessionStore, tmp_path: Path) -> None:
    victim = tmp_path / "victim.json"
    victim.write_text("{}")
    for call in (store.load, store.delete, store.record_path, store.resolve):
        with pytest.raises(InvalidInputError):
            call("../../victim")
    assert victim.exists()
    assert not store.dir.exists()


def test_prefix_resolution(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    store.create(_record("abcd9999"))
    store.create(_record("12345678"))
    assert store.resolve("1234") == "12345678"
    assert store.resolve("abcdef01") == "abcdef01"
    with pytest.raises(InvalidInputError) as caught:
        store.resolve("abcd")
    assert caught.value.details == {"id": "abcd", "matches": ["abcd9999", "abcdef01"]}
    with pytest.raises(NotFoundError):
        store.resolve("ffff")


def test_list_is_newest_first_and_reports_unreadable_files(store: SessionStore) -> None:
    store.create(_record("00000001", "2026-01-01T00:00:00Z"))
    store.create(_record("00000002", "2026-01-02T03:00:00+05:00"))
    store.create(_record("00000003", "2026-01-02T00:00:00Z"))
    (store.dir / "0000000f.json").write_text("{not json")
    (store.dir / "0000000e.json").write_text('{"id": "deadbeef"}')
    (store.dir / "0000000d.events.jsonl").write_text("{}\n")
    (store.dir / "0000000C.json").write_text(_record("0000000C").to_text())
    result = store.list()
    assert [r.id for r in result.records] == ["00000003", "00000002", "00000001"]
    assert sorted((u.path, u.error) for u in result.unreadable) == [
        (str(store.dir / "0000000C.json"), "file name is not a session id"),
        (str(store.dir / "0000000e.json"), "id does not match file name"),
        (str(store.dir / "0000000f.json"),
         "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ]
    assert set(result.texts) == {"00000001", "00000002", "00000003"}


def test_list_of_a_missing_store_is_empty(store: SessionStore) -> None:
    result = store.list()
    assert (result.records, result.unreadable) == ([], [])


def test_go_records_load_and_survive_a_rewrite(store: SessionStore, repo: Path) -> None:
    store.dir.mkdir(parents=True)
    text = go_record(COMPLETED_ISOLATED, repo).replace('"exit_code"', '"extra": 7,\n  "exit_code"')
    (store.dir / "3f9a1c7e.json").write_text(text)
    (store.dir / "0badc0de.json").write_text(go_record(RUNNING_DIRECT, repo))
    assert [r.id for r in store.list().records] == ["3f9a1c7e", "0badc0de"]
    store.update("3f9a1c7e", lambda r: setattr(r, "provider", "claude"))
    rewritten = json.loads((store.dir / "3f9a1c7e.json").read_text())
    original = json.loads(text)
    assert {k: rewritten[k] for k in original} == original
    assert rewritten["schema_version"] == 2


def test_unreadable_record_load_is_an_io_error(store: SessionStore) -> None:
    store.dir.mkdir(parents=True)
    (store.dir / "abcdef01.json").write_text("[]")
    with pytest.raises(IOFailure):
        store.load("abcdef01")


def test_update_that_raises_writes_nothing(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    before = (store.dir / "abcdef01.json").read_bytes()

    def boom(record: SessionRecord) -> None:
        record.status = Status.KILLED
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        store.update("abcdef01", boom)
    assert (store.dir / "abcdef01.json").read_bytes() == before
    assert [p.name for p in store.dir.iterdir() if p.name.endswith(".tmp")] == []


def test_delete_removes_record_events_log_and_lock(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    store.events_path("abcdef01").write_text("{}\n")
    store.log_path("abcdef01").parent.mkdir(parents=True)
    store.log_path("abcdef01").write_text("log")
    store.delete("abcdef01")
    assert sorted(os.listdir(store.dir)) == []
    assert not store.log_path("abcdef01").exists()
    with pytest.raises(NotFoundError):
        store.delete("abcdef01")


def test_a_held_lock_times_out_as_locked(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    with store.lock("abcdef01"), pytest.raises(LockedError), store.lock("abcdef01", timeout=0.05):
        pass


def _bump(root: str, field: str, times: int) -> None:
    store = SessionStore(find_project(root))
    for _ in range(times):
        def add(record: SessionRecord) -> None:
            record.extras[field] = record.extras.get(field, 0) + 1
            record.pid += 1
        store.update("abcdef01", add)


def test_concurrent_writers_in_two_processes_lose_nothing(store: SessionStore, repo: Path) -> None:
    store.create(_record("abcdef01"))
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_bump, args=(str(repo), f"w{n}", 60)) for n in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    final = store.load("abcdef01")
    assert (final.pid, final.extras) == (120, {"w0": 60, "w1": 60})


def test_list_orders_fractions_and_offsets_by_instant(store: SessionStore) -> None:
    stamps = {"00000001": "2026-01-01T00:00:00Z", "00000002": "2026-01-01T00:00:00.5Z",
              "00000003": "2026-01-01T00:00:00.123456789Z",
              "00000004": "2026-01-01T01:00:00.3+01:00", "00000005": "not a time"}
    for session_id, stamp in stamps.items():
        store.create(_record(session_id, stamp))
    assert [r.id for r in store.list().records] == [
        "00000002", "00000004", "00000003", "00000001", "00000005"]


def test_store_appends_and_reads_events(store: SessionStore) -> None:
    from gzia.sessions.events import append_event, new_event, read_events

    store.create(_record("abcdef01"))
    first, second = new_event("abcdef01", "a", "READ"), new_event("abcdef01", "b", "FINISH",
                                                                  status="ok")
    append_event(store, first)
    append_event(store, second)
    batch = read_events(store, "abcdef01")
    assert batch.events == [first, second]
    assert read_events(store, "abcdef01", batch.offset).events == []
    with pytest.raises(InvalidInputError):
        read_events(store, "../x")


@pytest.mark.timeout(10)
def test_a_lock_file_that_is_not_a_regular_file_is_an_error_not_a_hang(
    store: SessionStore,
) -> None:
    from gzia.contract import classify
    from gzia.sessions.store import NotRegularFileError

    store.dir.mkdir(parents=True)
    os.mkfifo(store.dir / "abcdef01.lock")
    with pytest.raises(NotRegularFileError) as caught:
        store.create(_record("abcdef01"))
    assert classify(caught.value)[1] == "IO"
    assert not (store.dir / "abcdef01.json").exists()


def test_delete_removes_the_lock_file_while_holding_it(store: SessionStore) -> None:
    store.create(_record("abcdef01"))
    store.delete("abcdef01")
    assert os.listdir(store.dir) == []
    with store.lock("abcdef01"):  # a later writer gets a fresh lock file
        assert store.lock_path("abcdef01").is_file()
