"""Background runs seen from outside the holder: :mod:`.launch` starts a holder and hands
it the run, :mod:`.client` talks to it (poll, input, kill, attach, the log), :mod:`.notes`
keeps its warnings and crashes, :mod:`.spec` is what it runs. The holder process
itself is :mod:`gzia.sessions.run.holder`.
"""

from __future__ import annotations

from gzia.sessions.background.client import (
    MAX_INPUT_BYTES,
    attach_session,
    follow,
    kill_through_holder,
    poll,
    send_input,
)
from gzia.sessions.background.launch import BackgroundOptions, start_in_background
from gzia.sessions.background.notes import HolderNotes, holder_log_path
from gzia.sessions.background.spec import MAX_SPEC_BYTES, HolderSpec

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_SPEC_BYTES",
    "BackgroundOptions",
    "HolderNotes",
    "HolderSpec",
    "attach_session",
    "follow",
    "holder_log_path",
    "kill_through_holder",
    "poll",
    "send_input",
    "start_in_background",
]
