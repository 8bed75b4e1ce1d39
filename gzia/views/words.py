"""A record's words in the user's language: its status, permission, end reason, its
agent's state and the state of its holder; and how ``session stop`` ended a run.

Records and JSON keep the English values (``running``, ``supervised``: contract values);
people read them through these tables. A value this version does not know (a newer
version's, or a hand-edited record's) is shown as it is.
"""

from __future__ import annotations

from gzia.contract import Permission
from gzia.i18n import NC_, gettext
from gzia.sessions.agent_state import AgentState
from gzia.sessions.record import HolderState, Status
from gzia.sessions.stop_outcome import StopHow, WhyKilled
from gzia.supervisor.endreason import EndReason

STATUS_WORDS: dict[str, str] = {
    Status.RUNNING: NC_("status", "running"),
    Status.COMPLETED: NC_("status", "completed"),
    Status.FAILED: NC_("status", "failed"),
    Status.KILLED: NC_("status", "killed"),
    Status.LOST: NC_("status", "lost"),
    Status.PAUSED: NC_("status", "paused"),
}
PERMISSION_WORDS: dict[str, str] = {
    Permission.READONLY: NC_("permission", "readonly"),
    Permission.SUPERVISED: NC_("permission", "supervised"),
    Permission.AUTONOMOUS: NC_("permission", "autonomous"),
}
END_REASON_WORDS: dict[str, str] = {
    EndReason.PROCESS_EXIT: NC_("end reason", "process_exit"),
    EndReason.SIGNAL: NC_("end reason", "signal"),
    EndReason.TIMEOUT: NC_("end reason", "timeout"),
    EndReason.NO_OUTPUT_TIMEOUT: NC_("end reason", "no_output_timeout"),
    EndReason.CANCELED: NC_("end reason", "canceled"),
    EndReason.SPAWN_FAILED: NC_("end reason", "spawn_failed"),
    EndReason.KILLED: NC_("end reason", "killed"),
    EndReason.LOST: NC_("end reason", "lost"),
    EndReason.STOPPED: NC_("end reason", "stopped"),
}
AGENT_STATE_WORDS: dict[str, str] = {
    AgentState.STARTING: NC_("agent state", "starting"),
    AgentState.WORKING: NC_("agent state", "working"),
    AgentState.WAITING: NC_("agent state", "waiting"),
    AgentState.IDLE: NC_("agent state", "idle"),
    AgentState.EXITED: NC_("agent state", "exited"),
}
HOLDER_WORDS: dict[str, str] = {
    HolderState.RUNNING: NC_("holder", "running"),
    HolderState.GONE: NC_("holder", "gone"),
}
STOP_WORDS: dict[str, str] = {
    StopHow.STOPPED: NC_("stop", "stopped"),
    StopHow.KILLED: NC_("stop", "killed"),
}
WHY_KILLED_WORDS: dict[str, str] = {
    WhyKilled.TIMED_OUT: NC_("why killed", "timed_out"),
    WhyKilled.NOT_ASKED: NC_("why killed", "not_asked"),
}


def _shown(words: dict[str, str], value: str | None) -> str:
    if value is None:
        return "-"
    word = words.get(value)
    return gettext(word) if word else value


def status_text(status: str) -> str:
    return _shown(STATUS_WORDS, status)


def permission_text(level: str) -> str:
    return _shown(PERMISSION_WORDS, level)


def end_reason_text(reason: str | None) -> str:
    """``-`` for none (a session still running)."""
    return _shown(END_REASON_WORDS, reason)


def agent_state_text(state: str | None) -> str:
    """``-`` for a record from before agent states."""
    return _shown(AGENT_STATE_WORDS, state)


def holder_text(state: str | None) -> str:
    """``-`` for a foreground session, which has no holder."""
    return _shown(HOLDER_WORDS, state)


def stop_text(how: str) -> str:
    return _shown(STOP_WORDS, how)


def why_killed_text(why: str | None) -> str:
    """``-`` when the run was not killed."""
    return _shown(WHY_KILLED_WORDS, why)
