"""What the screens need from the app: the project's store, the clock, the refresh period,
and gz-ia's read-only tools for the sessions started or resumed here.

Screens read it through :attr:`gzia.tui.screens.base.GzScreen.context`; the app module is
above the screens (it pushes them), so they never import it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gzia.sessions.store import SessionStore

Clock = Callable[[], float]


@dataclass(frozen=True)
class TuiContext:
    store: SessionStore
    clock: Clock = field(default=time.time)
    """Seconds since the epoch: ages and durations are drawn against it."""
    refresh_s: float = 2.0
    """How often the sessions table is read again from the store."""
    preapproved_tools: tuple[str, ...] = ()
    """gz-ia's own read-only tools, which a supervised agent started or resumed here calls
    without asking, as in ``gz-ia chat``: handed in by the command line (the ``tui`` layer
    does not import Orchy, whose tools they are)."""
