"""Running an agent as a session: :mod:`.request` holds what a run is asked and returns,
:mod:`.runner` starts it (in the foreground, or handed to a holder), :mod:`.resume`
runs an ended one again,
:mod:`.finish` writes its end and decides how it ended; :mod:`.holder` is the holder
process that runs a background session to its end.
"""

from __future__ import annotations

from gzia.sessions.run.holder import holder_main
from gzia.sessions.run.request import LaunchCallback, RunEnd, SessionRequest, SessionRun
from gzia.sessions.run.resume import resume_session
from gzia.sessions.run.runner import start_session

__all__ = [
    "LaunchCallback",
    "RunEnd",
    "SessionRequest",
    "SessionRun",
    "holder_main",
    "resume_session",
    "start_session",
]
