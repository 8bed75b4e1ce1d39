"""Notifications when a session needs a person: a command hook, a webhook, the desktop.

The owner of a run makes a :class:`Notifier` (:func:`notifier_for`), tells it the state
transitions and the end of the run; ``gz-ia notify test`` sends a sample
(:func:`send_test`). See docs/sessions.md.
"""

from __future__ import annotations

from collections.abc import Callable

from gzia.contract import GzError
from gzia.i18n import N_, gettext
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.notify.channels import Delivery
from gzia.sessions.notify.dispatcher import Notifier, send_all
from gzia.sessions.notify.event import Notification, StateChange, notable, test_notification
from gzia.sessions.notify.settings import NotifySettings, notify_settings
from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore

__all__ = ["Delivery", "Notification", "Notifier", "NotifySettings", "StateChange", "notable",
           "notifier_for", "notify_settings", "send_test"]


def notifier_for(store: SessionStore, session_id: str,
                 attached: Callable[[], bool]) -> Notifier | None:
    """The run's notifier; None when its settings cannot be read (said in its events:
    a setting that is wrong never stops a run)."""
    try:
        settings = notify_settings(store.project)
    except GzError as exc:
        log_lifecycle_event(store, session_id,
                            gettext(N_("notifications are off: {reason}"), reason=exc.message),
                            "FINISH", failed=True)
        return None
    return Notifier(store, session_id, settings, attached)


def send_test(project: Project) -> tuple[NotifySettings, list[Delivery]]:
    """``gz-ia notify test``: a sample through each configured channel."""
    settings = notify_settings(project)
    return settings, send_all(settings, test_notification(project.root), project.root)
