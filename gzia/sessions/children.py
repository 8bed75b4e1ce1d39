"""Sub-sessions: sessions a session's agent starts through Orchy (docs/orchy.md).

A child is a normal background session with ``parent_id`` in its record
(:mod:`gzia.sessions.child_start` starts one). Here: a parent's children
(:func:`children_of`), the check that a session is a given parent's child
(:func:`own_child`: a tool acts on its own session's children only), and
:func:`stop_children`, which ``session kill`` and ``session stop`` of a parent call
unless ``--keep-children``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from gzia.contract import GzError, InvalidInputError
from gzia.i18n import N_
from gzia.sessions.ids import validate_session_ref
from gzia.sessions.reconcile import get_session, list_sessions
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore


def children_of(store: SessionStore, parent_id: str) -> list[SessionRecord]:
    """The parent's children, reconciled, oldest first."""
    found = [r for r in list_sessions(store).records if r.parent_id == parent_id]
    return sorted(found, key=lambda r: (r.started_at, r.id))


def own_child(store: SessionStore, parent_id: str, ref: str) -> SessionRecord:
    """The session ``ref``, which must be a child of ``parent_id`` (else ``INVALID_INPUT``)."""
    record = get_session(store, validate_session_ref(ref))
    if record.parent_id != parent_id:
        raise InvalidInputError(N_("session '{id}' is not a sub-session of session '{parent}'"),
                                id=record.id, parent=parent_id,
                                details={"id": record.id, "parent_id": parent_id})
    return record


def stop_children(store: SessionStore, parent_id: str,
                  stop: Callable[[SessionStore, str], object]) -> list[str]:
    """Stop each running child of ``parent_id`` with ``stop`` (its own children first);
    the ids stopped. A child that ended meanwhile, or cannot be stopped, is passed over."""
    stopped: list[str] = []
    for child in children_of(store, parent_id):
        stopped += stop_children(store, child.id, stop)
        if not child.is_running:
            continue
        with contextlib.suppress(GzError):
            stop(store, child.id)
            stopped.append(child.id)
    return stopped
