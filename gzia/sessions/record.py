"""The session record: one JSON file per session, ``.harness/sessions/<id>.json``.

The field names and JSON shape are those of the original gz-ia (so its records load as
they are), plus the fields this version adds. Timestamps stay RFC 3339 strings exactly as
read (the original wrote nanoseconds, which ``datetime`` cannot hold): a record read and
written again keeps them byte for byte, and so it keeps every field it does not know.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from types import UnionType
from typing import Any

from gzia.sessions.sparse_fields import SPARSE_READERS, HolderRef, take_sparse
from gzia.sessions.timestamps import elapsed_ms, now_rfc3339, parse_rfc3339

__all__ = ["NO_EXIT_CODE", "SCHEMA_VERSION", "SPARSE", "HolderRef", "HolderState",
           "RecordFormatError", "SessionRecord", "Status", "elapsed_ms", "json_bytes",
           "json_types", "now_rfc3339", "parse_rfc3339"]

SCHEMA_VERSION = 2
"""1 is the original gz-ia (no ``schema_version`` field); 2 adds the fields below."""


class Status(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    KILLED = "killed"
    LOST = "lost"  # the process vanished without a final write
    PAUSED = "paused"  # worktree freed, its work kept on the branch (session pause)


class HolderState(StrEnum):
    """How a background session's holder is found (``session poll``'s ``holder``)."""

    RUNNING = "running"
    GONE = "gone"


NO_EXIT_CODE = frozenset({Status.RUNNING, Status.LOST})
"""Statuses that never have an exit code: the agent runs, or ended unseen. A record in one
of them reads ``exit_code: null`` whatever its file says (the original gz-ia wrote 0
while running: Go has no null integer)."""


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # one encoder: thousands of records per listing


def json_bytes(text: str) -> bytes:
    """UTF-8 bytes of JSON text, as the store writes them. A lone surrogate (undecodable
    bytes from argv, or an escaped one read back) becomes its ``\\uXXXX`` escape, which
    JSON reads back as the same string: only such characters can fail to encode."""
    return text.encode("utf-8", "backslashreplace")


class RecordFormatError(ValueError):
    """A record file whose JSON does not have the shape of a session record."""


SPARSE = {"sparse": True}
"""Marks the fields this version writes only when set, after the others."""


@dataclass
class SessionRecord:
    # The original gz-ia's fields, in its order.
    id: str
    pid: int = 0
    provider: str = ""
    status: str = Status.RUNNING
    permission_level: str = "supervised"
    working_dir: str = ""
    initial_prompt: str | None = None
    started_at: str = ""
    finished_at: str | None = None
    duration_ms: int | None = None
    exit_code: int | None = None
    """Null until there is one (:data:`NO_EXIT_CODE`)."""
    is_isolated: bool = False
    worktree_dir: str | None = None
    branch_name: str | None = None
    profiles: list[str] | None = None
    # Added by this version.
    schema_version: int = SCHEMA_VERSION
    base_branch: str | None = None
    base_commit: str | None = None
    pgid: int | None = None
    pid_start_time: str | None = None
    owner_pid: int | None = None
    """The gz-ia that runs the agent and writes the final record (with its start time)."""
    owner_start_time: str | None = None
    end_reason: str | None = None
    signal: int | None = None
    mode: str | None = None
    conversation_id: str | None = None
    log_path: str | None = None
    merged_at: str | None = None
    merged_commit: str | None = None
    updated_at: str | None = None
    labels: dict[str, str] | None = None
    """``--label k=v`` given at the start: metadata for filters, kept on resume."""
    idempotency_key: str | None = None
    """``--idempotency-key``: while this record exists, the key starts no other session."""
    # Added by this version, written only when set (in this order, after the fields above).
    command: list[str] | None = field(default=None, metadata=SPARSE)
    """An ``exec`` session's argv."""
    allow_push: bool | None = field(default=None, metadata=SPARSE)
    """``true`` (present only then): the session may push; kept on resume."""
    holder: HolderRef | None = field(default=None, metadata=SPARSE)
    """The holder of a background run (``{"pid", "start_time", "socket"}``)."""
    holder_warnings: list[dict[str, str]] | None = field(default=None, metadata=SPARSE)
    """What the holder gave up (``{"code", "message", "at"}`` each, at most 16)."""
    name: str | None = field(default=None, metadata=SPARSE)
    """``--name``: what a person calls the session (not an id: two may share one)."""
    state: str | None = field(default=None, metadata=SPARSE)
    """The agent's own state (:mod:`gzia.sessions.agent_state`): starting, working,
    waiting, idle, exited; beside ``status``, which says whether the process lives."""
    state_since: str | None = field(default=None, metadata=SPARSE)
    """When ``state`` last changed (RFC 3339)."""
    state_reason: str | None = field(default=None, metadata=SPARSE)
    """What the agent waits for (``waiting`` only, where the agent says)."""
    notify: bool | None = field(default=None, metadata=SPARSE)
    """``false`` (present only then): ``--no-notify``, the session sends no notification."""
    stop_requested_at: str | None = field(default=None, metadata=SPARSE)
    """When ``session stop`` asked the agent to end (RFC 3339): an agent that then ends
    on its own is recorded ``end_reason: stopped``. Cleared on resume."""
    sandbox: dict[str, Any] | None = field(default=None, metadata=SPARSE)
    """A sandboxed session's sandbox: ``{"network", "rw", "hidden"}`` (docs/sandbox.md)."""
    base_remote: str | None = field(default=None, metadata=SPARSE)
    """The remote the base branch was fetched from (``--fetch``): ``session update``
    fetches it again (:mod:`gzia.sessions.base_ref`)."""
    paused_at: str | None = field(default=None, metadata=SPARSE)
    """When ``session pause`` paused it (RFC 3339); cleared when it runs again."""
    paused_from: str | None = field(default=None, metadata=SPARSE)
    """Its status before the pause: ``session revive --no-resume`` puts it back."""
    parent_id: str | None = field(default=None, metadata=SPARSE)
    """The session whose Orchy started this one (a sub-session: :mod:`gzia.sessions.children`)."""
    pull_request: dict[str, Any] | None = field(default=None, metadata=SPARSE)
    """The pull request ``session pr`` opened (:mod:`gzia.sessions.review`): ``number``,
    ``url``, ``state`` (open, closed, merged), ``remote``, ``base``, ``forge``."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Fields this version does not know (or not in the form it writes them): written
    back unchanged. Records of the original gz-ia and of newer versions keep theirs."""

    @property
    def is_running(self) -> bool:
        return self.status == Status.RUNNING

    @property
    def is_merged(self) -> bool:
        """Completed, and merged since it last finished (``merged_at``; a resume that
        finishes later brings new work that is not merged). ``status`` stays
        ``completed``: merged is a fact beside the process status, not one of them."""
        if self.status != Status.COMPLETED or not self.merged_at:
            return False
        if not self.finished_at:
            return True
        try:
            return parse_rfc3339(self.merged_at) >= parse_rfc3339(self.finished_at)
        except ValueError:  # a hand-edited time: the merge is what the record says
            return True

    @property
    def workspace_path(self) -> str:
        """Where the agent works: the worktree when isolated, else the working dir."""
        if self.is_isolated and self.worktree_dir:
            return self.worktree_dir
        return self.working_dir

    def to_json(self) -> dict[str, Any]:
        """Every field in the documented order, then the unknown ones read from disk."""
        data = self.__dict__.copy()  # fields are set in their declared order
        extras = data.pop("extras")
        if len(data) != len(_FIELD_NAMES):  # sparse fields, or an attribute added by hand
            data = {name: data[name] for name in _FIELD_NAMES}
            data.update(self._sparse_json())
        for key, value in extras.items():
            data.setdefault(key, value)
        return data

    def _sparse_json(self) -> dict[str, Any]:
        values = {name: getattr(self, name) for name in SPARSE_READERS}
        if values["holder"] is not None:
            values["holder"] = values["holder"].to_json()
        return {name: value for name, value in values.items() if value is not None}

    def to_text(self) -> str:
        """The record as one line of JSON: how the store writes it and ``--json`` prints it."""
        return _ENCODER.encode(self.to_json())

    @classmethod
    def from_json(cls, data: object) -> SessionRecord:
        """Build a record from parsed JSON; :class:`RecordFormatError` when it is not one."""
        return cls._build(data, _shape_of(data))

    @classmethod
    def from_text(cls, text: str) -> tuple[SessionRecord, str | None]:
        """A record from its file's text, plus that text (without the final newline) when
        it is already :meth:`to_text`'s form: one line holding every field, in order, each
        of its own type. Listing then prints it as read instead of encoding it again.

        ``ValueError`` when the text is not JSON, :class:`RecordFormatError` when it is
        not a record.
        """
        data = _parse_json(text)
        shape = _shape_of(data)
        record = cls._build(data, shape)
        body = text[:-1] if text.endswith("\n") else text
        written_form = (shape is _Shape.CANONICAL and record.exit_code == data["exit_code"]
                        and _has_written_layout(body, record))
        return record, body if written_form else None

    @classmethod
    def _build(cls, data: object, shape: _Shape) -> SessionRecord:
        """Fill the instance directly instead of going through ``__init__`` with 31
        keyword arguments: this runs once per record on every ``session list``."""
        if not isinstance(data, dict):
            raise RecordFormatError("a session record must be a JSON object")
        extras: dict[str, Any] = {}
        if shape is not _Shape.OTHER:  # the usual case: every field known, of its own type
            values = {**_FROM_JSON_DEFAULTS, **data}
        else:
            values, extras = _values_and_extras(data)
        if type(values["id"]) is not str or not values["id"]:
            raise RecordFormatError("field 'id' is missing")
        for name, item_type in _ITEM_TYPES.items():
            items = values[name]
            if items is not None and not all(type(item) is item_type for item in
                                             (items.values() if type(items) is dict else items)):
                raise RecordFormatError(f"field '{name}' has an unexpected type")
        if extras:
            take_sparse(values, extras)
        values["extras"] = extras
        record = cls.__new__(cls)
        record.__dict__.update(values)
        if record.exit_code is not None and record.status in NO_EXIT_CODE:
            record.exit_code = None  # a placeholder, not an exit code
        return record


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_not_json)
_JSON_WHITESPACE = " \t\n\r"


def _parse_json(text: str) -> Any:
    """One JSON document, strictly: ``NaN`` and ``Infinity`` (which Python's parser would
    take) are errors, so nothing read can make ``--json`` output invalid; nesting too
    deep to parse is an error, not a crash. Without ``json.loads``' per-call overhead
    when the text starts with the value (as every stored record does)."""
    try:
        if not text.startswith("{"):
            return json.loads(text, parse_constant=_not_json)
        data, end = _DECODER.raw_decode(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if text[end:].strip(_JSON_WHITESPACE):
        raise json.JSONDecodeError("Extra data", text, end)
    return data


def _has_written_layout(body: str, record: SessionRecord) -> bool:
    """Laid out as :meth:`SessionRecord.to_text` lays a record out: one line, one object,
    and (as far as a count can tell, so no duplicate key) one ``": "`` per field and per
    entry of an object field. A string holding ``": "`` only costs that record an
    encoding."""
    entries = sum(len(getattr(record, name) or ()) for name in _OBJECT_FIELDS)
    return (body.startswith('{"') and body.endswith("}") and "\n" not in body
            and "\r" not in body and body.count('": ') == len(_FIELD_NAMES) + entries)


class _Shape(Enum):
    """What the keys and value types of a record's JSON say about it."""

    OTHER = "other"  # unknown fields, or types that need a field-by-field look
    PLAIN = "plain"  # only known fields, each of its own type (or null where allowed)
    CANONICAL = "canonical"  # PLAIN, and every field present in the documented order


def _dense(record_class: type) -> list[str]:
    """The fields every record has (``extras`` and the sparse fields aside)."""
    return [f.name for f in fields(record_class)
            if f.name != "extras" and not f.metadata.get("sparse")]


_FIELD_NAMES: tuple[str, ...] = tuple(_dense(SessionRecord))


def json_types(record_class: type) -> tuple[dict[str, type], frozenset[str], dict[str, type]]:
    """From a dataclass's annotations: each field's JSON type (a list field is ``list``,
    an object ``dict``), the fields that may be null, and the item type of each list field
    (the value type of each object field: JSON object keys are always strings)."""
    import typing

    hints = typing.get_type_hints(record_class)
    kinds: dict[str, type] = {}
    nullable: set[str] = set()
    items: dict[str, type] = {}
    for name in _dense(record_class):
        hint = hints[name]
        members = typing.get_args(hint) if typing.get_origin(hint) is UnionType else ()
        if type(None) in members:
            nullable.add(name)
            (hint,) = (member for member in members if member is not type(None))
        kinds[name] = typing.get_origin(hint) or hint
        if kinds[name] in (list, dict):
            items[name] = typing.get_args(hint)[-1]
    return kinds, frozenset(nullable), items


_TYPES, _NULLABLE, _ITEM_TYPES = json_types(SessionRecord)  # once, at import
_OBJECT_FIELDS = tuple(name for name, kind in _TYPES.items() if kind is dict)
_FROM_JSON_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in fields(SessionRecord) if f.name in _FIELD_NAMES
}
_FROM_JSON_DEFAULTS["id"] = None
_FROM_JSON_DEFAULTS["schema_version"] = 1  # a record without the field is the original's


_SHAPES: dict[tuple[tuple[str, ...], tuple[type, ...]], _Shape] = {}
_SHAPE_CACHE_LIMIT = 1024


def _shape_of(data: object) -> _Shape:
    """Classify a record's JSON by its keys and value types.

    Records written by one gz-ia share a handful of shapes (which fields are null), so
    the verdict is remembered per (keys, value types): one tuple comparison per record
    instead of a Python-level check of each of its 31 fields.
    """
    if not isinstance(data, dict):
        return _Shape.OTHER
    keys = tuple(data)
    shape = (keys, tuple(map(type, data.values())))
    verdict = _SHAPES.get(shape)
    if verdict is None:
        plain = all(
            _TYPES.get(key) is kind or (kind is type(None) and key in _NULLABLE)
            for key, kind in zip(*shape, strict=True)
        )
        verdict = (_Shape.OTHER if not plain else
                   _Shape.CANONICAL if keys == _FIELD_NAMES else _Shape.PLAIN)
        if len(_SHAPES) < _SHAPE_CACHE_LIMIT:
            _SHAPES[shape] = verdict
    return verdict



def _values_and_extras(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The general path: unknown fields kept aside, nulls in required fields ignored."""
    values = dict(_FROM_JSON_DEFAULTS)
    extras: dict[str, Any] = {}
    for key, value in data.items():
        expected = _TYPES.get(key)
        if expected is None:
            extras[key] = value
        elif value is None:
            if key in _NULLABLE:
                values[key] = None
        elif type(value) is expected:  # exact: a JSON true is not an integer
            values[key] = value
        else:
            raise RecordFormatError(f"field '{key}' has an unexpected type")
    return values, extras
