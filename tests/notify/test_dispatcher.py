"""The notifier of a run: one notification per notable transition once it has held for
the debounce, none for a muted session or an attached one; deliveries are events."""

from __future__ import annotations

import time
from pathlib import Path

from gzia.sessions.agent_state import AgentState, Transition
from gzia.sessions.events import read_events
from gzia.sessions.notify import Notifier
from gzia.sessions.notify.settings import NotifySettings
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from tests.background.conftest import wait_until
from tests.fakes.http import FakeServer
from tests.notify.conftest import posts

DEBOUNCE_S = 0.4


def make_store(repo: Path, **fields: object) -> tuple[SessionStore, SessionRecord]:
    store = SessionStore(find_project(repo))
    record = SessionRecord(id="ab12cd34", provider="shell", status="running",
                           started_at=now_rfc3339(), working_dir=str(repo))
    for name, value in fields.items():
        setattr(record, name, value)
    store.create(record)
    return store, record


def notifier(store: SessionStore, receiver: FakeServer, attached: bool = False) -> Notifier:
    settings = NotifySettings(command=None, webhook=receiver.url + "/hook", desktop=False,
                              debounce_s=DEBOUNCE_S, timeout_s=5.0)
    return Notifier(store, "ab12cd34", settings, lambda: attached)


def enter(store: SessionStore, notify: Notifier, state: str, previous: str | None,
          reason: str | None = None) -> Transition:
    """What the agent-state module does: the record first, then the listeners."""
    change = Transition("ab12cd34", AgentState(state), now_rfc3339(), reason,
                        None if previous is None else AgentState(previous))
    store.update("ab12cd34", lambda r: _enter(r, change))
    notify.transition(change)
    return change


def _enter(record: SessionRecord, change: Transition) -> None:
    record.state, record.state_since = change.state.value, change.since


def settle(seconds: float = DEBOUNCE_S * 3) -> None:
    time.sleep(seconds)  # nothing may arrive: give a wrong notification the time to come


def test_a_waiting_state_that_holds_is_notified_once(repo: Path, receiver: FakeServer) -> None:
    store, _ = make_store(repo)
    notify = notifier(store, receiver)
    enter(store, notify, "working", "starting")
    enter(store, notify, "waiting", "working", "Claude needs your permission to use Bash")
    (document,) = wait_until(lambda: posts(receiver), what="the waiting notification")
    settle()
    assert len(posts(receiver)) == 1
    assert document["text"] == ("gz-ia: session ab12cd34 is waiting for you: Claude needs your "
                                "permission to use Bash")
    assert (document["event"], document["state"], document["previous"]) == \
        ("waiting", "waiting", "working")
    events = [e for e in read_events(store, "ab12cd34").events
              if (e.metadata or {}).get("type") == "notify"]
    assert [(e.action, e.status, e.metadata) for e in events] == [
        ("notification sent (webhook: waiting)", "OK",
         {"type": "notify", "event": "waiting", "channel": "webhook", "attempts": 1})]


def test_a_state_that_does_not_hold_is_not_notified(repo: Path, receiver: FakeServer) -> None:
    store, _ = make_store(repo)
    notify = notifier(store, receiver)
    enter(store, notify, "waiting", "working")
    time.sleep(DEBOUNCE_S / 4)
    enter(store, notify, "working", "waiting")
    enter(store, notify, "idle", "working")
    (document,) = wait_until(lambda: posts(receiver), what="the idle notification")
    settle()
    assert [p["event"] for p in posts(receiver)] == ["idle"]
    assert document["text"] == "gz-ia: session ab12cd34 has finished its turn"


def test_idle_after_starting_and_working_itself_are_not_notified(
        repo: Path, receiver: FakeServer) -> None:
    store, _ = make_store(repo)
    notify = notifier(store, receiver)
    enter(store, notify, "idle", "starting")
    settle()
    enter(store, notify, "working", "idle")
    settle()
    assert posts(receiver) == []


def test_each_transition_that_holds_is_one_post(repo: Path, receiver: FakeServer) -> None:
    store, _ = make_store(repo)
    notify = notifier(store, receiver)
    enter(store, notify, "waiting", "working")
    wait_until(lambda: posts(receiver), what="the first notification")
    enter(store, notify, "working", "waiting")
    enter(store, notify, "idle", "working")
    wait_until(lambda: len(posts(receiver)) == 2, what="the second notification")
    settle()
    assert [p["event"] for p in posts(receiver)] == ["waiting", "idle"]


def test_an_attached_session_is_not_notified(repo: Path, receiver: FakeServer) -> None:
    store, record = make_store(repo)
    notify = notifier(store, receiver, attached=True)
    enter(store, notify, "waiting", "working")
    settle()
    assert notify.run_ended(record, attached=True) == []
    settle(0.2)
    assert posts(receiver) == []


def test_a_muted_session_is_not_notified(repo: Path, receiver: FakeServer) -> None:
    store, record = make_store(repo, notify=False)
    notify = notifier(store, receiver)
    enter(store, notify, "waiting", "working")
    settle()
    assert notify.run_ended(record, attached=False) == []
    assert posts(receiver) == []


def test_the_end_of_the_run_cancels_a_pending_state(repo: Path, receiver: FakeServer) -> None:
    store, record = make_store(repo)
    notify = notifier(store, receiver)
    enter(store, notify, "waiting", "working")
    record.status, record.exit_code = "completed", 0
    (delivery,) = notify.run_ended(record, attached=False)
    assert delivery.ok
    settle()
    assert [p["event"] for p in posts(receiver)] == ["end"]


def test_a_failing_webhook_is_a_warning_event(repo: Path, receiver: FakeServer) -> None:
    receiver.inject("status", "/hook", status=500)
    store, record = make_store(repo)
    record.status, record.exit_code = "completed", 0
    (delivery,) = notifier(store, receiver).run_ended(record, attached=False)
    assert (delivery.ok, delivery.attempts) == (False, 3)
    (event,) = [e for e in read_events(store, "ab12cd34").events
                if (e.metadata or {}).get("type") == "notify"]
    assert (event.action, event.status, event.error) == (
        "notification not delivered (webhook: end)", "FAILED",
        f"127.0.0.1:{receiver.port} answered HTTP 500")
