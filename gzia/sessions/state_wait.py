"""``session wait --until STATE`` and ``session submit --when idle``: waits on the
agent's own state (:mod:`gzia.sessions.agent_state`), with :func:`wait_for`'s watch of
the record files. A session that ends while awaited is done (it will never get there),
and its outcome says so (``reached: false``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gzia.contract import ConflictError, InvalidInputError, TimeoutFailure
from gzia.i18n import N_
from gzia.sessions.agent_state import AgentState, state_of
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.wait import Reached, WaitResult, ended, wait_for

STATE_CHANGE = "state-change"
UNTIL_CHOICES = ("waiting", "idle", "exited", STATE_CHANGE)


def parse_until(raw: str) -> str:
    if raw not in UNTIL_CHOICES:
        raise InvalidInputError(N_("invalid state: '{value}' (valid: {choices})"), value=raw,
                                choices=", ".join(UNTIL_CHOICES),
                                details={"until": raw, "valid": list(UNTIL_CHOICES)})
    return raw


@dataclass(frozen=True)
class StateGoal:
    """What ``--until`` asks of each session, against their records at the start."""

    until: str
    start: dict[str, tuple[str | None, str | None]]

    @classmethod
    def of(cls, until: str, records: Sequence[SessionRecord]) -> StateGoal:
        return cls(parse_until(until), {r.id: (r.state, r.state_since) for r in records})

    def reached(self, record: SessionRecord | None) -> bool:
        """The session is where it was awaited (an ended one only for ``exited`` and
        ``state-change``)."""
        if record is None:
            return False
        if self.until == STATE_CHANGE:
            return (record.state, record.state_since) != self.start.get(record.id) \
                or not record.is_running
        return state_of(record) is AgentState(self.until)

    def done(self, record: SessionRecord | None) -> bool:
        return ended(record) or self.reached(record)

    def outcome(self, session_id: str, record: SessionRecord | None) -> dict[str, object]:
        state = state_of(record) if record is not None else None
        return {"id": session_id, "state": state.value if state is not None else None,
                "state_since": record.state_since if record is not None else None,
                "state_reason": record.state_reason if record is not None else None,
                "status": record.status if record is not None else None,
                "reached": self.reached(record), "deleted": record is None}

    def to_json(self, ids: Sequence[str], result: WaitResult) -> dict[str, object]:
        sessions = [self.outcome(i, r) for i, r in zip(ids, result.records, strict=True)]
        return {"until": self.until, "timed_out": result.timed_out,
                "all_reached": all(s["reached"] for s in sessions), "sessions": sessions}


def wait_for_state(store: SessionStore, records: list[SessionRecord], until: str, *,
                   any_one: bool = False, timeout: float | None = None
                   ) -> tuple[StateGoal, WaitResult]:
    goal = StateGoal.of(until, records)
    done: Reached = goal.done
    return goal, wait_for(store, records, any_one=any_one, timeout=timeout, reached=done)


def wait_until_idle(store: SessionStore, record: SessionRecord,
                    timeout: float | None) -> SessionRecord:
    """The record once its agent is idle (``submit --when idle``). ``TIMEOUT``
    (retryable) when ``timeout`` passes first, ``CONFLICT`` when the session ends."""
    goal, result = wait_for_state(store, [record], AgentState.IDLE.value, timeout=timeout)
    found = result.records[0]
    if result.timed_out:
        raise TimeoutFailure(N_("timed out after {seconds} s waiting for session '{id}' to be "
                                "idle; the text was not sent"),
                             seconds=timeout, id=record.id,
                             details={"id": record.id, "timeout": timeout},
                             data=goal.outcome(record.id, found))
    if found is None or not goal.reached(found):
        raise ConflictError(N_("session '{id}' ended before it was idle; the text was not sent"),
                            id=record.id, details={"id": record.id})
    return found
