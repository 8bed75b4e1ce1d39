"""Resuming a finished session as every front end does (``gz-ia resume``, ``gz-ia session
resume``, the terminal UI): the session, where to find it, and the run's options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gzia.drivers.registry import get_driver
from gzia.sessions.run import resume_session
from gzia.sessions.run_options import RunOptions

if TYPE_CHECKING:
    from gzia.sessions.run import LaunchCallback, SessionRun


@dataclass(frozen=True)
class ResumeRequest:
    """What a resume asks for; the watchdog's grace, the push setting, the MCP server
    command and the terminal's size come from the settings and this process."""

    ref: str
    """The session id or a unique prefix."""
    directory: str | None = None
    options: RunOptions = field(default_factory=RunOptions)


def resume(request: ResumeRequest, on_launch: LaunchCallback | None = None) -> SessionRun:
    return resume_session(request.directory, request.ref, request.options,
                          driver_for=lambda provider: get_driver(provider or "agy"),
                          on_launch=on_launch)
