"""Stopping a session: through its holder when it has one, else by its recorded process
group (``gz-ia session kill``, the terminal UI's kill); then its sub-sessions, unless
kept (:func:`gzia.sessions.children.stop_children`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.sessions.background import kill_through_holder
from gzia.sessions.kill import kill_session
from gzia.sessions.run_settings import provider_kill_grace_s
from gzia.supervisor.endreason import ASKED_REASONS

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


def stop_children_of_ended_run(store: SessionStore, record: SessionRecord) -> None:
    """The owner of a run that has ended (``record``: its final record) kills its running
    sub-sessions, deepest first, as ``session kill`` kills them, whatever the end
    (completed, failed, canceled, a watchdog's timeout, a signal): a child never outlives
    its parent's run unowned. Except when ``session kill`` or ``session stop`` ended it
    (``end_reason`` ``killed``, ``stopped``): that command stops the children itself,
    unless ``--keep-children`` was asked."""
    if record.end_reason in ASKED_REASONS:
        return
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sessions.children import stop_children

    stop_children(store, record.id, _kill_one)


def _kill_one(store: SessionStore, session_id: str) -> None:
    stop_session(store, session_id, keep_children=True)  # stop_children walks the tree
