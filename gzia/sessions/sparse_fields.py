"""The fields a session record writes only when set (its "sparse" fields): how each is
read from a record's JSON, and the holder of a background run that one of them names.

A value of another form than the one this version writes is not read: it stays in the
record's ``extras``, written back as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class HolderRef:
    """The holder of a background run, as its record names it."""

    pid: int
    start_time: str
    socket: Path
    more: dict[str, Any] = field(default_factory=dict, compare=False)
    """Keys a newer gz-ia added to the field: written back unchanged."""

    @classmethod
    def from_json(cls, raw: object) -> HolderRef | None:
        """The holder a record's field names, or None when it is unusable (it then stays
        in ``extras``, written back as it was)."""
        if not isinstance(raw, dict):
            return None
        pid, start, sock = raw.get("pid"), raw.get("start_time"), raw.get("socket")
        if type(pid) is not int or pid <= 1 or not isinstance(start, str) \
                or not isinstance(sock, str):
            return None  # without a start time a pid proves nothing
        more = {k: v for k, v in raw.items() if k not in ("pid", "start_time", "socket")}
        return cls(pid, start, Path(sock), more)

    def to_json(self) -> dict[str, Any]:
        return {"pid": self.pid, "start_time": self.start_time, "socket": str(self.socket),
                **self.more}

    def alive(self) -> bool:
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.supervisor.procinfo import is_process_alive

        return is_process_alive(self.pid, self.start_time)


def _string_list(value: object) -> list[str] | None:
    return value if type(value) is list and all(type(i) is str for i in value) else None


def _text(value: object) -> str | None:
    return value if type(value) is str else None


def _session_id(value: object) -> str | None:
    """An id as gz-ia makes them (8 lowercase hex characters); anything else stays aside."""
    if type(value) is str and len(value) == 8 and all(c in "0123456789abcdef" for c in value):
        return value
    return None


def _true(value: object) -> bool | None:
    return True if value is True else None


def _false(value: object) -> bool | None:
    return False if value is False else None


def _warnings(value: object) -> list[dict[str, str]] | None:
    if type(value) is not list or not all(
            type(item) is dict and all(type(v) is str for v in item.values()) for item in value):
        return None
    return value


def _sandbox(value: object) -> dict[str, Any] | None:
    if type(value) is not dict or type(value.get("network")) is not str:
        return None
    lists = (_string_list(value.get(key)) for key in ("rw", "hidden"))
    return value if all(item is not None for item in lists) else None


def _pull_request(value: object) -> dict[str, Any] | None:
    if type(value) is not dict or type(value.get("number")) is not int \
            or not all(type(value.get(key)) is str for key in ("url", "state")):
        return None
    return value


SPARSE_READERS: dict[str, Callable[[object], Any]] = {
    "command": _string_list, "allow_push": _true, "holder": HolderRef.from_json,
    "holder_warnings": _warnings, "name": _text, "state": _text, "state_since": _text,
    "state_reason": _text, "notify": _false, "stop_requested_at": _text,
    "sandbox": _sandbox,
    "base_remote": _text,
    "paused_at": _text, "paused_from": _text,
    "parent_id": _session_id,
    "pull_request": _pull_request,
}
"""Each sparse field, in its written order, and how it is read: a value of another form
stays in ``extras``."""


def take_sparse(values: dict[str, Any], extras: dict[str, Any]) -> None:
    for name, read in SPARSE_READERS.items():
        if name in extras:
            typed = read(extras[name])
            if typed is not None:
                values[name] = typed
                del extras[name]
