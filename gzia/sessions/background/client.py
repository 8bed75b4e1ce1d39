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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.contract import (
    ConflictError,
    ErrorCode,
    GzError,
    InvalidInputError,
    IOFailure,
    Problem,
    SafetyBlockError,
    error_class,
)
from gzia.i18n import N_
from gzia.sessions.agent_state import state_of
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import HolderRef, HolderState, SessionRecord
from gzia.sessions.store import SessionStore
from gzia.supervisor import control
from gzia.supervisor.logfile import LogFollower, log_size
from gzia.supervisor.relay import MAX_PENDING_INPUT
from gzia.supervisor.runtime_dir import socket_missing
from gzia.supervisor.socket_trust import is_trusted_socket

if TYPE_CHECKING:
    from gzia.sessions.kill import KillResult
    from gzia.supervisor.attach import AttachStreams
    from gzia.supervisor.killtarget import KillTarget
    from gzia.supervisor.logfile import LogMark

CALL_TIMEOUT_S = 10.0
FOLLOW_INTERVAL_S = 0.1
MAX_INPUT_BYTES = MAX_PENDING_INPUT
"""Bytes one ``send-keys``, ``paste`` or ``submit`` may carry: what the holder keeps
waiting for the agent. Its request (base64) stays well inside the control protocol's
line (:data:`gzia.supervisor.control.MAX_REQUEST_LINE`)."""


def holder_state(record: SessionRecord) -> HolderState | None:
    """``running`` or ``gone`` for a background session, None for a foreground one."""
    holder = record.holder
    if holder is None:
        return None
    return HolderState.RUNNING if holder.alive() else HolderState.GONE


def ask_holder(record: SessionRecord, request: dict[str, Any],
               timeout: float = CALL_TIMEOUT_S) -> dict[str, Any]:
    """The holder's reply, or the error that says why there is none."""
    holder = _trusted_holder(record)
    try:
        reply = control.call(holder.socket, request, timeout)
    except OSError as exc:
        if not holder.alive():
            raise _holder_gone(record) from exc
        raise IOFailure(N_("cannot reach the holder of session '{id}': {detail}"), id=record.id,
                        detail=str(exc),
                        details={"id": record.id}) from exc
    if not reply.get("ok"):
        raise _refusal(record, reply.get("error"))
    return reply


def _refusal(record: SessionRecord, error: object) -> GzError:
    """The holder's answer to a request it did not carry out: the class its problem's
    code names, saying that the holder refused, and why."""
    try:
        problem = Problem.from_json(error)
    except ValueError:
        problem = Problem(ErrorCode.IO, str(error)[:500])
    return error_class(problem.code)(N_("the holder of session '{id}' refused: {detail}"),
                                     id=record.id, detail=problem.message,
                                     details={"id": record.id})


def _live_holder(record: SessionRecord) -> HolderRef:
    if not record.is_running:
        raise ConflictError(N_("session '{id}' is not running (current status: {status})"),
                            id=record.id, status=record.status,
                            details={"id": record.id, "status": record.status},
                            data=record.to_json())
    holder = record.holder
    if holder is None:
        raise ConflictError(N_("session '{id}' was not started with -b: there is no holder to talk "
                               "to"),
                            id=record.id, details={"id": record.id})
    if not holder.alive():
        raise _holder_gone(record)
    return holder


def _trusted_holder(record: SessionRecord) -> HolderRef:
    """The live holder, when its control socket is one gz-ia may talk to."""
    holder = _live_holder(record)
    if socket_missing(holder.socket):
        raise IOFailure(N_("the holder of session '{id}' runs (PID {pid}) but its control socket "
                           "{socket} is gone (deleted, or its directory was): it can no longer "
                           "take input or be attached to"),
                        id=record.id, pid=holder.pid,
                        socket=str(holder.socket),
                        hint_key=N_("stop it with: gz-ia session kill {id}"),
                        details={"id": record.id, "holder": HolderState.RUNNING,
                                 "socket": str(holder.socket)})
    if not is_trusted_socket(holder.socket):
        raise SafetyBlockError(N_("the control socket {socket} of session '{id}' is not a socket "
                                  "of this user in a private directory: gz-ia does not talk to it"),
                               id=record.id,
                               socket=str(holder.socket),
                               details={"id": record.id, "socket": str(holder.socket)})
    return holder


def _holder_gone(record: SessionRecord) -> GzError:
    return ConflictError(N_("the holder of session '{id}' is gone; its agent (PID {pid}) may still "
                            "run"),
                         id=record.id, pid=record.pid,
                         hint_key=N_("stop it with: gz-ia session kill {id}"),
                         details={"id": record.id, "pid": record.pid, "holder": HolderState.GONE})


def send_input(record: SessionRecord, data: bytes) -> int:
    """Write ``data`` to the agent's terminal; the number of bytes taken. More than
    :data:`MAX_INPUT_BYTES` is refused before the holder is asked."""
    if len(data) > MAX_INPUT_BYTES:
        raise InvalidInputError(N_("input for session '{id}' is larger than {limit} bytes, the "
                                   "most one send-keys, paste or submit takes"),
                                id=record.id, limit=MAX_INPUT_BYTES,
                                hint_key=N_("send it in parts, or write it to a file in the "
                                            "session's worktree and name the file"),
                                details={"id": record.id, "limit": MAX_INPUT_BYTES})
    reply = ask_holder(record, {"op": "input", "data": control.encode_bytes(data)})
    return int(reply.get("bytes", len(data)))


def poll(record: SessionRecord) -> dict[str, Any]:
    """State, exit code, bytes of output so far, seconds since the last output."""
    log = Path(record.log_path) if record.log_path else None
    state: dict[str, Any] = {
        "id": record.id, "status": record.status, "exit_code": record.exit_code,
        "end_reason": record.end_reason, "pid": record.pid, "holder": holder_state(record),
        "output_bytes": log_size(log) if log is not None else 0,
        "idle_s": _idle_from_file(log), "attached": 0, "name": record.name,
        **state_fields(record),
    }
    if record.is_running and state["holder"] == HolderState.RUNNING:
        try:
            reply = ask_holder(record, {"op": "poll"}, timeout=2.0)
        except GzError:
            return state
        state.update(output_bytes=reply["output_bytes"], idle_s=reply["idle_s"],
                     attached=reply["attached"])
    return state


def state_fields(record: SessionRecord) -> dict[str, Any]:
    """The agent's state as poll reports it (``exited`` once the run is over)."""

    state = state_of(record)
    return {"state": state.value if state is not None else None,
            "state_since": record.state_since, "state_reason": record.state_reason}


def _idle_from_file(log: Path | None) -> float | None:
    if log is None:
        return None
    try:
        return round(max(0.0, time.time() - log.stat().st_mtime), 3)
    except OSError:
        return None


def follow(store: SessionStore, session_id: str, start: LogMark) -> Iterator[bytes]:
    """The log's new bytes as they come (from where a read ended, ``start``), until the
    session is no longer running; then what is left."""
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


def kill_through_holder(store: SessionStore, record: SessionRecord,
                        grace_s: float) -> KillResult | None:
    """``session kill`` of a background run, asked of its holder (the run's owner, which
    signals the group, records ``killed`` and writes the final record). None when no live
    holder answers, or it refused: the caller then kills by the recorded group
    (:func:`gzia.sessions.kill.kill_session`), which also says why it cannot."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sessions.kill import KillResult

    holder = record.holder
    if not record.is_running or holder is None or not holder.alive():
        return None
    try:
        reply = ask_holder(record, {"op": "kill", "grace_s": grace_s},
                           timeout=grace_s + CALL_TIMEOUT_S)
    except GzError:
        return None
    wait_for_final_write(holder, grace_s + CALL_TIMEOUT_S)
    signal = reply.get("signal")
    return KillResult(get_session(store, record.id), signal if isinstance(signal, int) else None,
                      was_lost=False, target=_target(reply.get("target")))


def _target(raw: object) -> KillTarget | None:
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.killtarget import KillTarget

    if not isinstance(raw, dict) or not isinstance(raw.get("pid"), int):
        return None
    return KillTarget(raw["pid"], None, int(raw.get("pgid") or 0), raw.get("recorded_pgid"),
                      raw.get("reason"))


def attach_session(store: SessionStore, record: SessionRecord,
                   streams: AttachStreams) -> tuple[str, SessionRecord]:
    """Relay a terminal to the run until detached or ended; then the record as it is."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.attach import ENDED, attach

    if not record.is_running:
        raise ConflictError(N_("session '{id}' has finished ({status}): there is nothing to attach "
                               "to"),
                            id=record.id, status=record.status,
                            hint_key=N_("its output: gz-ia session output {id}"),
                            details={"id": record.id, "status": record.status},
                            data=record.to_json())
    holder = _trusted_holder(record)
    try:
        with control.connect(holder.socket, CALL_TIMEOUT_S) as sock:
            how = attach(sock, streams)
    except OSError as exc:
        raise IOFailure(N_("cannot reach the holder of session '{id}': {detail}"), id=record.id,
                        detail=str(exc),
                        details={"id": record.id}) from exc
    if how == ENDED:
        wait_for_final_write(holder, CALL_TIMEOUT_S)
    return how, get_session(store, record.id)


def wait_for_final_write(holder: HolderRef, timeout_s: float) -> None:
    """Until the holder is gone (its final write comes last, then the end's notification,
    itself bounded by ``notify_timeout``), at most ``timeout_s``: nothing of the run is
    left when a kill or an attach that saw the end returns."""
    deadline = time.monotonic() + timeout_s
    while holder.alive() and time.monotonic() < deadline:
        time.sleep(FOLLOW_INTERVAL_S / 10)
