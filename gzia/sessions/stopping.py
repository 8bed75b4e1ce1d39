"""Stopping a session: through its holder when it has one, else by its recorded process
group (``gz-ia session kill``, the terminal UI's kill); then its sub-sessions, unless
kept (:func:`gzia.sessions.children.stop_children`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.sessions.background import kill_through_holder
from gzia.sessions.kill import kill_session
from gzia.sessions.run_settings import provider_kill_grace_s
from gzia.supervisor.endreason import WATCHDOG_REASONS

if TYPE_CHECKING:
    from gzia.sessions.kill import KillResult
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore


def stop_session(store: SessionStore, ref: str, *, force: bool = False,
                 keep_children: bool = False) -> KillResult:
    """Kill a session through its holder when it has one, else by its recorded process
    group, after the configured grace (``session kill``; the terminal UI's kill too);
    then kill its running sub-sessions, deepest first, unless ``keep_children``."""
    record = store.load(store.resolve(ref))  # as stored: kill_session reconciles it
    grace_s = provider_kill_grace_s(record.provider)
    result = (kill_through_holder(store, record, grace_s)
              or kill_session(store, ref, grace_s, force=force))
    if not keep_children:
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.children import stop_children

        stop_children(store, result.record.id, _kill_one)
    return result


def stop_children_of_stopped_run(store: SessionStore, record: SessionRecord) -> None:
    """A run its own watchdog stopped (``timeout``, ``no_output_timeout``) was killed as
    much as by ``session kill``: its running sub-sessions are killed too. (A run that
    ended on its own leaves them running; ``session kill`` and ``stop`` see to theirs.)"""
    if record.end_reason in WATCHDOG_REASONS:
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.children import stop_children

        stop_children(store, record.id, _kill_one)


def _kill_one(store: SessionStore, session_id: str) -> None:
    stop_session(store, session_id, keep_children=True)  # stop_children walks the tree
