"""The idle timeout of sub-sessions: a child whose agent stays ``idle`` (its turn over,
nobody asking it anything) for ``subsession_idle_timeout`` seconds is stopped as
``session stop`` stops it (its quit keys, then a kill), with its own children.

The holder that runs the child follows its agent's state transitions
(:func:`gzia.sessions.agent_state.relayed_transitions`, whoever records them: hooks or
the kernel detector) and hands each one to :meth:`IdleStop.transition`: ``idle`` arms
the timer, any other state disarms it.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

from gzia.contract import GzError
from gzia.i18n import gettext
from gzia.sessions.agent_state import AgentState, Transition
from gzia.sessions.events import log_lifecycle_event

if TYPE_CHECKING:
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore


class IdleStop:
    def __init__(self, store: SessionStore, session_id: str, seconds: float) -> None:
        self.store, self.session_id, self.seconds = store, session_id, seconds
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def transition(self, transition: Transition) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if transition.state is AgentState.IDLE:
                self._timer = threading.Timer(self.seconds, self._stop)
                self._timer.daemon = True
                self._timer.start()

    def _stop(self) -> None:
        # lazy: only when a child has idled out
        from gzia.config import load_config
        from gzia.sessions.graceful_stop import stop_gracefully

        log_lifecycle_event(self.store, self.session_id,
                            gettext("sub-session idle for {seconds} s: stopping it",
                                    seconds=int(self.seconds)), "PENDING")
        with contextlib.suppress(GzError):  # it ended meanwhile
            stop_gracefully(self.store, self.session_id,
                            float(load_config().get("stop_timeout")))


def idle_stop_for(store: SessionStore, record: SessionRecord) -> IdleStop | None:
    """The idle timeout of a sub-session (``None``: not a child, or the setting is 0)."""
    if record.parent_id is None:
        return None
    # lazy: only for sub-sessions
    from gzia.sessions.caps import Caps

    seconds = Caps.configured().idle_timeout_s
    return IdleStop(store, record.id, seconds) if seconds > 0 else None
