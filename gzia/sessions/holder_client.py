"""What commands ask of a background session: its state, its output, input, a kill.

The holder named in the record (``holder``: pid, start time, socket) is asked through
its control socket. It counts as present only while that pid runs with that start time
(a reused pid is someone else); when it is gone, what the files say is the answer:
the log for output, the record for state, and ``session kill`` falls back to the
recorded process group (see :mod:`gzia.sessions.kill`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.contract import ConflictError, GzError, IOFailure
from gzia.sessions.background import HOLDER_EXTRA
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.supervisor import control

CALL_TIMEOUT_S = 10.0
FOLLOW_INTERVAL_S = 0.1


@dataclass(frozen=True)
class HolderRef:
    pid: int
    start_time: str | None
    socket: Path

    @classmethod
    def of(cls, record: SessionRecord) -> HolderRef | None:
        raw = record.extras.get(HOLDER_EXTRA)
        if not isinstance(raw, dict):
            return None
        pid, start, sock = raw.get("pid"), raw.get("start_time"), raw.get("socket")
        if not isinstance(pid, int) or not isinstance(sock, str):
            return None
        return cls(pid, start if isinstance(start, str) else None, Path(sock))

    def alive(self) -> bool:
        from gzia.supervisor.procinfo import is_process_alive

        return is_process_alive(self.pid, self.start_time)


def holder_state(record: SessionRecord) -> str | None:
    """``running`` or ``gone`` for a background session, None for a foreground one."""
    holder = HolderRef.of(record)
    if holder is None:
        return None
    return "running" if holder.alive() else "gone"


def ask_holder(record: SessionRecord, request: dict[str, Any],
               timeout: float = CALL_TIMEOUT_S) -> dict[str, Any]:
    """The holder's reply, or the error that says why there is none."""
    holder = _live_holder(record)
    try:
        reply = control.call(holder.socket, request, timeout)
    except OSError as exc:
        if not holder.alive():
            raise _holder_gone(record) from exc
        raise IOFailure("run.holder_unreachable", id=record.id, detail=str(exc),
                        details={"id": record.id}) from exc
    if not reply.get("ok"):
        raise IOFailure("run.holder_refused", id=record.id, detail=str(reply.get("error")),
                        details={"id": record.id})
    return reply


def _live_holder(record: SessionRecord) -> HolderRef:
    if not record.is_running:
        raise ConflictError("run.not_running", id=record.id, status=record.status,
                            details={"id": record.id, "status": record.status},
                            data=record.to_json())
    holder = HolderRef.of(record)
    if holder is None:
        raise ConflictError("run.not_background", id=record.id, details={"id": record.id})
    if not holder.alive():
        raise _holder_gone(record)
    return holder


def _holder_gone(record: SessionRecord) -> GzError:
    return ConflictError("run.holder_gone", id=record.id, pid=record.pid,
                         hint_key="run.holder_gone_hint",
                         details={"id": record.id, "pid": record.pid, "holder": "gone"})


def send_input(record: SessionRecord, data: bytes) -> int:
    """Write ``data`` to the agent's terminal; the number of bytes taken."""
    reply = ask_holder(record, {"op": "input", "data": control.encode_bytes(data)})
    return int(reply.get("bytes", len(data)))


def poll(record: SessionRecord) -> dict[str, Any]:
    """State, exit code, bytes of output so far, seconds since the last output."""
    from gzia.supervisor.logfile import log_size

    log = Path(record.log_path) if record.log_path else None
    state: dict[str, Any] = {
        "id": record.id, "status": record.status, "exit_code": record.exit_code,
        "end_reason": record.end_reason, "pid": record.pid, "holder": holder_state(record),
        "output_bytes": log_size(log) if log is not None else 0,
        "idle_s": _idle_from_file(log), "attached": 0,
    }
    if record.is_running and state["holder"] == "running":
        try:
            reply = ask_holder(record, {"op": "poll"}, timeout=2.0)
        except GzError:
            return state
        state.update(output_bytes=reply["output_bytes"], idle_s=reply["idle_s"],
                     attached=reply["attached"])
    return state


def _idle_from_file(log: Path | None) -> float | None:
    if log is None:
        return None
    try:
        return round(max(0.0, time.time() - log.stat().st_mtime), 3)
    except OSError:
        return None


def follow(store: SessionStore, session_id: str, start: int) -> Iterator[bytes]:
    """The log's new bytes as they come (from offset ``start`` of the current file), until
    the session is no longer running; then what is left."""
    from gzia.supervisor.logfile import LogFollower

    record = get_session(store, session_id)
    if not record.log_path:
        return
    follower = LogFollower(Path(record.log_path), start)
    try:
        while True:
            running = get_session(store, session_id).is_running
            chunk = follower.read_available()
            if chunk:
                yield chunk
            if not running:
                if rest := follower.read_available():
                    yield rest
                return
            time.sleep(FOLLOW_INTERVAL_S)
    finally:
        follower.close()
