"""The fields this version writes (command, allow_push, holder, holder_warnings) are typed
fields of the record, not extras; extras keep only what this version does not know."""

from __future__ import annotations

import json
from pathlib import Path

from gzia.sessions.record import HolderRef, SessionRecord

HOLDER = {"pid": 4242, "start_time": "123456", "socket": "/tmp/gz-ia-1000/ab12cd34-abcdef.sock"}
WARNING = {"code": "log_stopped", "message": "output is no longer logged",
           "at": "2026-01-01T00:00:00Z"}


def background_record() -> dict[str, object]:
    record = SessionRecord(id="ab12cd34", provider="shell", started_at="2026-01-01T00:00:00Z")
    return {**json.loads(record.to_text()), "command": ["sh", "-c", "true"],
            "allow_push": True, "holder": HOLDER, "holder_warnings": [WARNING]}


def test_the_fields_read_as_typed_values_and_write_back_as_they_were() -> None:
    text = json.dumps(background_record(), ensure_ascii=False)
    record, _ = SessionRecord.from_text(text)
    assert record.command == ["sh", "-c", "true"]
    assert record.allow_push is True
    assert record.holder == HolderRef(4242, "123456", Path(HOLDER["socket"]))
    assert record.holder_warnings == [WARNING]
    assert record.extras == {}
    assert record.to_text() == text


def test_a_new_record_writes_only_the_fields_it_has_set() -> None:
    record = SessionRecord(id="ab12cd34")
    assert not {"command", "allow_push", "holder", "holder_warnings"} & record.to_json().keys()
    record.command, record.allow_push = ["make"], True
    assert list(record.to_json())[-2:] == ["command", "allow_push"]


def test_values_of_another_form_stay_extras_written_back_unchanged() -> None:
    data = {**background_record(), "command": "not a list", "allow_push": False,
            "holder": {"pid": "x"}, "holder_warnings": {"code": 1}, "from_a_newer_gz_ia": [1]}
    record = SessionRecord.from_json(data)
    assert (record.command, record.allow_push, record.holder, record.holder_warnings) == (
        None, None, None, None)
    assert record.extras == {"command": "not a list", "allow_push": False,
                             "holder": {"pid": "x"}, "holder_warnings": {"code": 1},
                             "from_a_newer_gz_ia": [1]}
    assert record.to_json() == data


def test_a_holder_with_keys_of_a_newer_version_keeps_them() -> None:
    data = {**background_record(), "holder": {**HOLDER, "protocol": 2}}
    record = SessionRecord.from_json(data)
    assert record.holder is not None and record.holder.pid == 4242
    assert record.to_json()["holder"] == {**HOLDER, "protocol": 2}
