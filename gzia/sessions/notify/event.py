"""What a notification says: one small JSON document, the same for every channel.

A notification is made from a session's record and what happened to it: a state
transition (the agent waits for the person, or its turn is over) or the end of a run.
The document goes as it is to the command hook's stdin and as the webhook's body (its
``text`` field is what a chat service shows); the desktop shows ``text``. The command
hook also gets the main fields as ``GZ_SESSION_*`` variables.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gzia.i18n import N_, gettext
from gzia.sessions.record import SessionRecord, now_rfc3339

WAITING = "waiting"
IDLE = "idle"
WORKING = "working"
END = "end"
TEST = "test"

_MSG_TEXT: dict[object, str] = {
    "waiting": N_("gz-ia: session {label} is waiting for you"),
    "waiting_reason": N_("gz-ia: session {label} is waiting for you: {reason}"),
    "idle": N_("gz-ia: session {label} has finished its turn"),
    "end": N_("gz-ia: session {label} has ended: {status} (exit code {exit_code})"),
    "test": N_("gz-ia: a test notification (gz-ia notify test)"),
}
REASON_LIMIT = 200
"""Characters of an agent's reason kept in a notification."""


class StateChange(Protocol):
    """A state transition as the agent-state module reports it (``Transition``)."""

    @property
    def session_id(self) -> str: ...

    @property
    def state(self) -> str: ...

    @property
    def since(self) -> str: ...

    @property
    def reason(self) -> str | None: ...

    @property
    def previous(self) -> str | None: ...


def notable(change: StateChange) -> bool:
    """Whether a transition is worth a person's attention: the agent waits for them,
    or its turn is over after it worked."""
    state, previous = str(change.state), change.previous
    return state == WAITING or (state == IDLE and previous is not None
                                and str(previous) == WORKING)


@dataclass(frozen=True)
class Notification:
    event: str
    """``waiting``, ``idle``, ``end`` or ``test``."""
    document: dict[str, Any]

    @property
    def text(self) -> str:
        return str(self.document["text"])

    @property
    def session_id(self) -> str:
        return str(self.document.get("session_id") or "")

    def environment(self) -> dict[str, str]:
        """The ``GZ_SESSION_*`` variables the command hook gets."""
        names = {"session_id": "ID", "name": "NAME", "provider": "PROVIDER",
                 "project": "PROJECT", "event": "EVENT", "state": "STATE", "status": "STATUS",
                 "exit_code": "EXIT_CODE", "reason": "REASON", "text": "TEXT"}
        return {f"GZ_SESSION_{variable}": str(self.document[key])
                for key, variable in names.items() if self.document.get(key) is not None}


def state_notification(record: SessionRecord, change: StateChange) -> Notification:
    state = str(change.state)
    reason = (change.reason or "")[:REASON_LIMIT] or None
    key = "waiting_reason" if state == WAITING and reason else state
    document = _document(record, state, gettext(_MSG_TEXT[key], label=label_of(record),
                                                reason=reason))
    document.update(state=state, previous=_text_or_none(change.previous), since=change.since,
                    reason=reason)
    return Notification(state, document)


def end_notification(record: SessionRecord) -> Notification:
    exit_code = "-" if record.exit_code is None else record.exit_code
    text = gettext(_MSG_TEXT["end"], label=label_of(record), status=record.status,
                   exit_code=exit_code)
    document = _document(record, END, text)
    document.update(state="exited", status=record.status, end_reason=record.end_reason,
                    exit_code=record.exit_code, finished_at=record.finished_at)
    return Notification(END, document)


def test_notification(project: Path) -> Notification:
    document = {"text": gettext(_MSG_TEXT["test"]), "event": TEST, "session_id": None,
                "name": None, "provider": None, "project": str(project), "at": now_rfc3339()}
    return Notification(TEST, document)


def label_of(record: SessionRecord) -> str:
    """How a person knows the session: its name and id, else its id."""
    return f"{record.name} ({record.id})" if record.name else record.id


def _document(record: SessionRecord, event: str, text: str) -> dict[str, Any]:
    return {"text": text, "event": event, "session_id": record.id,
            "name": record.name, "provider": record.provider,
            "project": record.working_dir, "branch": record.branch_name, "at": now_rfc3339()}


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)
