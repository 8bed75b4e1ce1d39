"""Why a run ended: the ``end_reason`` of a run outcome and of the session record.

The supervisor decides the first five; the session layer adds the rest (a spawn that
failed, ``session kill``, a process found gone). One enum for both, defined here, the
lowest layer that needs it; it imports nothing, so loading records stays cheap.
"""

from __future__ import annotations

from enum import StrEnum


class EndReason(StrEnum):
    PROCESS_EXIT = "process_exit"
    SIGNAL = "signal"
    TIMEOUT = "timeout"
    NO_OUTPUT_TIMEOUT = "no_output_timeout"
    CANCELED = "canceled"
    SPAWN_FAILED = "spawn_failed"
    KILLED = "killed"
    STOPPED = "stopped"
    """``session stop`` asked the agent to end, and it ended on its own."""
    LOST = "lost"


WATCHDOG_REASONS = frozenset({EndReason.TIMEOUT, EndReason.NO_OUTPUT_TIMEOUT})
"""The reasons gz-ia's own watchdog ended the run for (not a signal from outside)."""

ASKED_REASONS = frozenset({EndReason.KILLED, EndReason.STOPPED})
"""The ends a gz-ia command asked for from outside the run (``session kill``, ``session
stop``), rather than the run's own end or its watchdog's."""
