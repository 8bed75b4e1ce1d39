from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

import pytest

from gzia.sessions.record import (
    RecordFormatError,
    SessionRecord,
    Status,
    elapsed_ms,
    json_types,
    parse_rfc3339,
)
from tests.sessions.session_testkit import COMPLETED_ISOLATED, RUNNING_DIRECT, go_record


def test_go_record_loads_every_field() -> None:
    record = SessionRecord.from_json(json.loads(go_record(COMPLETED_ISOLATED, "/p")))
    assert record == SessionRecord(
        id="3f9a1c7e", pid=48213, provider="claude", status="completed",
        permission_level="supervised", working_dir="/p", initial_prompt="Arregla los tests",
        started_at="2025-06-01T10:15:30.123456789+02:00",
        finished_at="2025-06-01T10:20:31.987654321+02:00", duration_ms=301864, exit_code=0,
        is_isolated=True, worktree_dir="/p/.harness/worktrees/3f9a1c7e",
        branch_name="harness/3f9a1c7e", profiles=["backend"], schema_version=1,
    )


def test_go_record_with_omitted_fields_loads_with_defaults() -> None:
    record = SessionRecord.from_json(json.loads(go_record(RUNNING_DIRECT, "/p")))
    assert record.status == Status.RUNNING
    assert (record.initial_prompt, record.finished_at, record.duration_ms) == (None, None, None)
    assert (record.worktree_dir, record.branch_name, record.profiles) == (None, None, None)
    assert record.schema_version == 1
    assert record.workspace_path == "/p"


def test_round_trip_keeps_unknown_fields_and_nanosecond_times() -> None:
    original = json.loads(go_record(COMPLETED_ISOLATED, "/p"))
    original["future_field"] = {"nested": [1, 2]}
    again = SessionRecord.from_json(original).to_json()
    assert again["future_field"] == {"nested": [1, 2]}
    assert again["started_at"] == "2025-06-01T10:15:30.123456789+02:00"
    assert {k: again[k] for k in original} == original


def test_to_json_has_every_field_in_order() -> None:
    data = SessionRecord(id="abcdef01").to_json()
    assert list(data) == [
        "id", "pid", "provider", "status", "permission_level", "working_dir",
        "initial_prompt", "started_at", "finished_at", "duration_ms", "exit_code",
        "is_isolated", "worktree_dir", "branch_name", "profiles", "schema_version",
        "base_branch", "base_commit", "pgid", "pid_start_time", "owner_pid",
        "owner_start_time", "end_reason", "signal",
        "mode", "conversation_id", "log_path", "merged_at", "merged_commit", "updated_at",
        "labels", "idempotency_key",
    ]
    assert json.loads(json.dumps(data))["status"] == "running"


@pytest.mark.parametrize(
    "data",
    [[], {"pid": 1}, {"id": "abcdef01", "pid": "12"}, {"id": "abcdef01", "is_isolated": 1},
     {"id": "abcdef01", "profiles": [1]}, {"id": "abcdef01", "pid": True}],
)
def test_malformed_records_are_refused(data: object) -> None:
    with pytest.raises(RecordFormatError):
        SessionRecord.from_json(data)


def test_null_in_a_non_nullable_field_keeps_the_default() -> None:
    assert SessionRecord.from_json({"id": "abcdef01", "pid": None}).pid == 0


def test_parse_rfc3339_variants() -> None:
    plus2 = timezone(timedelta(hours=2))
    assert parse_rfc3339("2025-06-01T10:15:30.123456789+02:00") == datetime(
        2025, 6, 1, 10, 15, 30, 123456, tzinfo=plus2
    )
    assert parse_rfc3339("2025-06-01T10:15:30Z") == datetime(2025, 6, 1, 10, 15, 30, tzinfo=UTC)
    assert parse_rfc3339("2025-06-01T10:15:30.5Z").microsecond == 500000
    with pytest.raises(ValueError):
        parse_rfc3339("yesterday")


def test_elapsed_ms() -> None:
    assert elapsed_ms("2025-06-01T10:00:00Z", "2025-06-01T10:00:01.250Z") == 1250
    assert elapsed_ms("garbage", "2025-06-01T10:00:01Z") is None


@dataclass
class _FutureRecord:
    id: str
    archived: bool = False
    labels: list[str] | None = None
    attempts: int | None = None
    tags: list[int] | None = None


def test_field_types_come_from_the_annotations() -> None:
    """A field added later is read with the type it is declared with, whatever its name."""
    kinds, nullable, items = json_types(_FutureRecord)
    assert kinds == {"id": str, "archived": bool, "labels": list, "attempts": int, "tags": list}
    assert nullable == {"labels", "attempts", "tags"}
    assert items == {"labels": str, "tags": int}


def test_every_field_round_trips_with_a_value_of_its_declared_type() -> None:
    kinds, _, items = json_types(SessionRecord)
    samples = {str: "x", int: 7, bool: True}
    values = {name: [samples[items[name]]] if kind is list else
              {"k": samples[items[name]]} if kind is dict else samples[kind]
              for name, kind in kinds.items()}
    record = SessionRecord(**values)
    again, as_read = SessionRecord.from_text(record.to_text() + "\n")
    assert again == record
    assert as_read == record.to_text()  # stored form: printed as read, no field retyped
