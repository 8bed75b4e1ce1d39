"""What ``session stop`` did, as its JSON says it (``data.stop``): how the run ended and,
when it was killed, why. Contract values; people read them through
:mod:`gzia.views.words`. Imports nothing, so a view can name them cheaply."""

from __future__ import annotations

from enum import StrEnum


class StopHow(StrEnum):
    STOPPED = "stopped"
    """The agent ended on its own when asked."""
    KILLED = "killed"
    """The agent was killed (``session kill``'s protocol)."""


class WhyKilled(StrEnum):
    TIMED_OUT = "timed_out"
    """It was still running when the time was up."""
    NOT_ASKED = "not_asked"
    """It could not be asked (no proof the recorded pid is still the agent, or it could not
    be signalled): killed at once."""
