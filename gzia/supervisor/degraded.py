"""How a holder degrades instead of failing its run: the codes of its warnings.

Each lands once in the holder's log, the record's ``holder_warnings`` and the session's
events (:class:`gzia.sessions.background.HolderNotes`); the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum


class HolderWarning(StrEnum):
    CONNECTIONS_REFUSED = "connections_refused"
    """More connections at once than a holder serves: the extra ones were answered busy."""
    OUT_OF_DESCRIPTORS = "out_of_descriptors"
    HANDLER_FAILED = "handler_failed"
    """A control request or its reply failed; the holder answered with an error."""
    LOG_STOPPED = "log_stopped"
    """The output log could not be written any more: output still reaches attachers."""


Warn = Callable[[HolderWarning, str], None]
"""What a degraded part calls: ``warn(code, message)``."""
