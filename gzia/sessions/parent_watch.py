"""A sub-session whose parent died unseen is stopped (docs/orchy.md, "Sub-sessions").

``session kill`` and ``session stop`` of a parent stop its children themselves, and the
owner of a parent's run kills them once the run has ended any other way
(:func:`gzia.sessions.stopping.stop_children_of_ended_run`); a parent whose owner was
killed from outside (its holder or its gz-ia sent SIGKILL, the machine's OOM killer)
cannot. So the holder that runs a child checks its parent every :data:`PARENT_CHECK_S`
seconds, reconciled as any reader sees it: once the parent is ``lost``, the child's own
children are stopped (deepest first), then the child, as ``session stop`` stops them
(quit keys, then a kill after ``stop_timeout``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from gzia.contract import GzError
from gzia.i18n import gettext
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore

PARENT_CHECK_S = 1.0


@contextlib.contextmanager
def watching_parent(store: SessionStore, record: SessionRecord) -> Iterator[None]:
    """While the run lasts, stop it when its parent is lost (a session without a parent:
    nothing to watch)."""
    if record.parent_id is None:
        yield
        return
    done = threading.Event()
    watch = threading.Thread(target=_watch, args=(store, record.id, record.parent_id, done),
                             name="gz-parent-watch", daemon=True)
    watch.start()
    try:
        yield
    finally:
        done.set()


def _watch(store: SessionStore, session_id: str, parent_id: str,
           done: threading.Event) -> None:
    while not done.wait(PARENT_CHECK_S):
        if _lost(store, parent_id):
            log_lifecycle_event(store, session_id, gettext(
                "parent session {parent} was lost: stopping its sub-session",
                parent=parent_id), "PENDING")
            _stop_with_children(store, session_id)
            return


def _lost(store: SessionStore, parent_id: str) -> bool:
    try:
        return get_session(store, parent_id).status == Status.LOST
    except GzError:  # deleted, or unreadable for now: nothing says it died
        return False


def _stop_with_children(store: SessionStore, session_id: str) -> None:
    # lazy: only when a parent was lost
    from gzia.config import load_config
    from gzia.sessions.children import stop_children
    from gzia.sessions.graceful_stop import stop_gracefully

    timeout = float(load_config().get("stop_timeout"))
    stop_children(store, session_id,
                  lambda s, child: stop_gracefully(s, child, timeout, keep_children=True))
    with contextlib.suppress(GzError):  # it ended meanwhile
        stop_gracefully(store, session_id, timeout, keep_children=True)
