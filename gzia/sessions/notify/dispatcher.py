"""Deciding and sending a session's notifications, in the process that owns its run.

The owner (a background run's holder, or the foreground gz-ia) makes one
:class:`Notifier` per run and tells it each state transition (:meth:`Notifier.transition`,
a listener of the agent's state) and the end of the run (:meth:`Notifier.run_ended`).

- A transition is notable when the agent waits for the person, or its turn is over
  after it worked (:func:`~gzia.sessions.notify.event.notable`). It is sent only once it
  has held ``notify_debounce_ms``: a timer then reads the record, and sends only if the
  record still says that state since that moment. A newer transition cancels the timer.
- Nothing is sent for a session muted with ``--no-notify`` (``notify: false`` in its
  record), nor while a person is attached to it (the owner says so).
- Sending never blocks the owner: a state's notification is sent from its timer's
  thread, every channel at once, each within ``notify_timeout``. Each delivery, sent or
  failed, is an event in the session's events (a failure is a warning there, never a
  failed session); nothing here raises.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

from gzia.contract import GzError
from gzia.i18n import N_, gettext
from gzia.sessions.events import append_event, new_event
from gzia.sessions.notify.channels import (
    Delivery,
    WebhookClient,
    post_webhook,
    run_command,
    show_on_desktop,
)
from gzia.sessions.notify.event import (
    Notification,
    StateChange,
    end_notification,
    notable,
    state_notification,
)
from gzia.sessions.notify.settings import NotifySettings
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore

_MSG_DELIVERY: dict[object, str] = {
    True: N_("notification sent ({channel}: {event})"),
    False: N_("notification not delivered ({channel}: {event})"),
}
JOIN_MARGIN_S = 1.0
"""Beyond ``notify_timeout``, how long the owner waits for a channel before it goes on."""


def send_all(settings: NotifySettings, notification: Notification, cwd: Path,
             clients: WebhookClient | None = None) -> list[Delivery]:
    """Send through every configured channel at once; each within ``settings.timeout_s``."""
    senders: dict[str, Callable[[], Delivery]] = {
        "command": lambda: run_command(settings.command or (), notification,
                                       settings.timeout_s, cwd),
        "webhook": lambda: post_webhook(settings.webhook or "", notification, settings.timeout_s,
                                        clients),
        "desktop": lambda: show_on_desktop(notification, settings.timeout_s, cwd),
    }
    results: dict[str, Delivery] = {}
    threads = [threading.Thread(target=_into, args=(results, name, senders[name]), daemon=True)
               for name in settings.channels]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + settings.timeout_s + JOIN_MARGIN_S
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [results.get(name) or Delivery(name, False, "timed out")
            for name in settings.channels]


def _into(results: dict[str, Delivery], name: str, send: Callable[[], Delivery]) -> None:
    try:
        results[name] = send()
    except Exception as exc:  # a channel's own defect is a warning, never the owner's end
        results[name] = Delivery(name, False, type(exc).__name__)


class Notifier:
    """One run's notifications (see the module's doc)."""

    def __init__(self, store: SessionStore, session_id: str, settings: NotifySettings,
                 attached: Callable[[], bool]) -> None:
        self.store = store
        self.session_id = session_id
        self.settings = settings
        self.attached = attached
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._sending: list[threading.Thread] = []
        self._clients = WebhookClient(settings.timeout_s)

    def transition(self, change: StateChange) -> None:
        """A state transition of the session (from any writer, in order)."""
        with self._lock:
            self._cancel_timer()
            if not self.settings.channels or not notable(change):
                return
            timer = threading.Timer(self.settings.debounce_s, self._state_held, (change,))
            timer.daemon = True
            self._timer = timer
            timer.start()
            self.prepare()

    def prepare(self) -> None:
        """Make the webhook's client ahead (in a thread): a state waits out its debounce,
        or the owner writes the final record."""
        if self.settings.webhook and "webhook" in self.settings.channels:
            self._clients.warm()

    def run_ended(self, record: SessionRecord, *, attached: bool) -> list[Delivery]:
        """The run's final record is written: notify its end (unless muted or attached),
        after the state notifications still being sent."""
        with self._lock:
            self._cancel_timer()
            sending = list(self._sending)
        deadline = time.monotonic() + self.settings.timeout_s + JOIN_MARGIN_S
        for thread in sending:
            thread.join(max(0.0, deadline - time.monotonic()))
        try:
            if attached or not self.settings.channels:
                return []
            return self._deliver(record, end_notification(record))
        finally:
            self._clients.close()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _state_held(self, change: StateChange) -> None:
        with self._lock:
            self._sending = [t for t in self._sending if t.is_alive()]
            self._sending.append(threading.current_thread())
        try:
            record = self.store.load(self.session_id)
        except GzError:  # deleted meanwhile
            return
        if _still_in(record, change) and not self.attached():
            self._deliver(record, state_notification(record, change))

    def _deliver(self, record: SessionRecord, notification: Notification) -> list[Delivery]:
        if record.notify is False:
            return []
        deliveries = send_all(self.settings, notification, self.store.project.root,
                              self._clients)
        for delivery in deliveries:
            _log_delivery(self.store, self.session_id, notification, delivery)
        return deliveries


def _still_in(record: SessionRecord, change: StateChange) -> bool:
    """Whether the record still says ``change``'s state, since that very transition."""
    return (record.status == Status.RUNNING and record.state == str(change.state)
            and record.state_since == change.since)


def _log_delivery(store: SessionStore, session_id: str, notification: Notification,
                  delivery: Delivery) -> None:
    action = gettext(_MSG_DELIVERY[delivery.ok], channel=delivery.channel,
                     event=notification.event)
    event = new_event(session_id, action, "FINISH", status="OK" if delivery.ok else "FAILED",
                      agent_id="gz-ia", error=delivery.detail,
                      metadata={"type": "notify", "event": notification.event,
                                "channel": delivery.channel, "attempts": delivery.attempts})
    with contextlib.suppress(GzError, OSError):  # the event log never decides anything
        append_event(store, event)
