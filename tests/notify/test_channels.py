"""The channels alone: the webhook (retries, proxy, no credential shown) and the command
hook (the document on stdin, GZ_SESSION_* variables, a deadline)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gzia.sessions.notify.channels import post_webhook, run_command
from gzia.sessions.notify.event import end_notification
from gzia.sessions.record import SessionRecord
from tests.fakes.http import FakeServer, dead_url
from tests.fakes.proxy import ProxyProcess
from tests.notify.conftest import hook_calls, post_requests, posts


def ended_record() -> SessionRecord:
    return SessionRecord(id="ab12cd34", provider="shell", status="failed", exit_code=3,
                         working_dir="/work/project", end_reason="process_exit",
                         finished_at="2026-12-03T14:10:00.000000Z",
                         branch_name="harness/ab12cd34")


def test_the_webhook_gets_one_small_json_document_with_a_text(receiver: FakeServer) -> None:
    notification = end_notification(ended_record())
    delivery = post_webhook(receiver.url + "/hook", notification, 5.0)
    assert (delivery.ok, delivery.attempts) == (True, 1)
    (request,) = post_requests(receiver)
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"].startswith("gz-ia/")
    document = json.loads(request.body)
    at = document.pop("at")
    assert at.endswith("Z")
    assert document == {
        "text": "gz-ia: session ab12cd34 has ended: failed (exit code 3)", "event": "end",
        "session_id": "ab12cd34", "name": None, "provider": "shell",
        "project": "/work/project", "branch": "harness/ab12cd34", "state": "exited",
        "status": "failed", "end_reason": "process_exit", "exit_code": 3,
        "finished_at": "2026-12-03T14:10:00.000000Z"}


def test_a_500_is_retried_then_delivered(receiver: FakeServer) -> None:
    receiver.inject("status", "/hook", method="POST", times=2, status=500)
    delivery = post_webhook(receiver.url + "/hook", end_notification(ended_record()), 10.0)
    assert (delivery.ok, delivery.attempts) == (True, 3)
    assert len(post_requests(receiver)) == 3


def test_retries_are_bounded_and_the_failure_names_no_credential(receiver: FakeServer) -> None:
    receiver.inject("status", "/services", method="POST", status=503)
    url = receiver.url.replace("://", "://user:hunter2@") + "/services/T0/B0/s3cr3tt0k3n?token=x"
    delivery = post_webhook(url, end_notification(ended_record()), 10.0)
    assert (delivery.ok, delivery.attempts) == (False, 3)
    assert delivery.detail == f"127.0.0.1:{receiver.port} answered HTTP 503"
    assert len(post_requests(receiver)) == 3


def test_a_client_error_is_not_retried(receiver: FakeServer) -> None:
    receiver.inject("status", "/hook", method="POST", status=404)
    delivery = post_webhook(receiver.url + "/hook", end_notification(ended_record()), 10.0)
    assert (delivery.ok, delivery.attempts) == (False, 1)


def test_retries_stop_at_the_deadline() -> None:
    started = time.monotonic()
    delivery = post_webhook(dead_url() + "/hook", end_notification(ended_record()), 0.8)
    assert not delivery.ok
    assert delivery.attempts == 2  # the second pause (1 s) would pass the deadline
    assert time.monotonic() - started < 2.0
    assert delivery.detail is not None and delivery.detail.startswith("cannot connect to 127.0.0.1")


def test_the_webhook_goes_through_the_proxy_update_uses(
        receiver: FakeServer, http_proxy: ProxyProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("http_proxy", http_proxy.url)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    mark = http_proxy.mark()
    delivery = post_webhook(receiver.url + "/hook", end_notification(ended_record()), 10.0)
    assert delivery.ok, delivery.detail
    log = http_proxy.log_since(mark)
    assert f"POST 127.0.0.1:{receiver.port}/hook" in log
    assert posts(receiver)[0]["session_id"] == "ab12cd34"


def test_the_command_hook_gets_the_document_and_the_session_variables(
        hook: tuple[list[str], Path], tmp_path: Path) -> None:
    argv, out = hook
    notification = end_notification(ended_record())
    delivery = run_command(argv, notification, 10.0, tmp_path)
    assert delivery.ok, delivery.detail
    (call,) = hook_calls(out)
    assert call["stdin"] == notification.document
    assert call["env"] == {
        "GZ_SESSION_ID": "ab12cd34", "GZ_SESSION_PROVIDER": "shell",
        "GZ_SESSION_PROJECT": "/work/project", "GZ_SESSION_EVENT": "end",
        "GZ_SESSION_STATE": "exited", "GZ_SESSION_STATUS": "failed",
        "GZ_SESSION_EXIT_CODE": "3",
        "GZ_SESSION_TEXT": "gz-ia: session ab12cd34 has ended: failed (exit code 3)"}


def test_the_command_is_never_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    delivery = run_command([f"touch {marker}"], end_notification(ended_record()), 5.0,
                           tmp_path)
    assert not delivery.ok
    assert delivery.detail == f"program 'touch {marker}' not found"
    assert not marker.exists()


def test_a_failing_command_is_a_delivery_failure_with_its_last_words(tmp_path: Path) -> None:
    import sys

    argv = [sys.executable, "-c",
            "import sys; sys.stderr.write('posting to https://u:pw@example.test failed\\n');"
            " sys.exit(4)"]
    delivery = run_command(argv, end_notification(ended_record()), 5.0, tmp_path)
    assert not delivery.ok
    assert delivery.detail == (f"'{sys.executable}' exited with code 4: posting to "
                               "https://u:****@example.test failed")


def test_a_hanging_command_is_stopped_at_its_deadline(tmp_path: Path) -> None:
    import sys

    started = time.monotonic()
    delivery = run_command([sys.executable, "-c", "import time; time.sleep(60)"],
                           end_notification(ended_record()), 0.5, tmp_path)
    assert not delivery.ok
    assert time.monotonic() - started < 5
    assert delivery.detail == f"'{sys.executable}' did not finish within 0.5 s and was stopped"
