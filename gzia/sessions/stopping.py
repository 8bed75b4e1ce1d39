"""Stopping a session: through its holder when it has one, else by its recorded process
group (``gz-ia session kill``, the terminal UI's kill)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.sessions.background import kill_through_holder
from gzia.sessions.kill import kill_session
from gzia.sessions.run_settings import configured_watchdog

if TYPE_CHECKING:
    from gzia.sessions.kill import KillResult
    from gzia.sessions.store import SessionStore


def stop_session(store: SessionStore, ref: str, *, force: bool = False) -> KillResult:
    """Kill a session through its holder when it has one, else by its recorded process
    group, after the configured grace (``session kill``; the terminal UI's kill too)."""
    grace_s = configured_watchdog().kill_grace_s
    record = store.load(store.resolve(ref))  # as stored: kill_session reconciles it
    return (kill_through_holder(store, record, grace_s)
            or kill_session(store, ref, grace_s, force=force))
