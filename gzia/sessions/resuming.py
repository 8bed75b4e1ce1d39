"""Resuming a finished session as every front end does (``gz-ia resume``, ``gz-ia session
resume``, the terminal UI): one typed request, the rest from the settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzia.sessions.run import LaunchCallback, SessionRun


@dataclass(frozen=True)
class ResumeRequest:
    """What a resume asks for; the watchdog's grace, the push setting, the MCP server
    command and the terminal's size come from the settings and this process."""

    ref: str
    """The session id or a unique prefix."""
    directory: str | None = None
    background: bool = False
    timeout_s: float | None = None
    no_output_timeout_s: float | None = None
    profiles: tuple[str, ...] = ()
    no_mcp: bool = False
    output_to_stderr: bool = False
    """The agent's output goes to stderr (JSON mode: stdout carries the envelope alone)."""
    notify: bool = True
    """False: ``--no-notify`` (a session once muted stays muted)."""


def resume(request: ResumeRequest, on_launch: LaunchCallback | None = None) -> SessionRun:
    from gzia.drivers.registry import get_driver
    from gzia.sessions.mcp_command import server_command
    from gzia.sessions.run import resume_session
    from gzia.sessions.run_settings import background_options, configured_watchdog, push_allowed

    return resume_session(
        request.directory, request.ref,
        driver_for=lambda provider: get_driver(provider or "agy"),
        watchdog=configured_watchdog(request.timeout_s, request.no_output_timeout_s),
        on_launch=on_launch, output_to_stderr=request.output_to_stderr,
        background=background_options(request.background), allow_push=push_allowed(False),
        profiles=request.profiles, mcp_server=server_command(request.no_mcp),
        notify=request.notify,
    )
