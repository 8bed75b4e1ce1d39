"""The end of a real background run is notified by its holder: one POST and one hook
call, never a failed session for a failed notification, nothing while a person is
attached."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gzia.supervisor.control import connect, read_reply, send_request
from tests.background.conftest import holder_pid, stored, wait_final, wait_until
from tests.conftest import Result
from tests.fakes.http import FakeServer
from tests.notify.conftest import hook_calls, post_requests, posts, start_in_background
from tests.supervisor.fakes import pid_running


def notify_events(repo: Path, session_id: str) -> list[tuple[str, str | None, str | None]]:
    import json

    path = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()]
    return [(e["action"], e["status"], e.get("error")) for e in events
            if (e.get("metadata") or {}).get("type") == "notify"]


def holder_gone(repo: Path, session_id: str) -> None:
    pid = holder_pid(stored(repo, session_id))
    wait_until(lambda: not pid_running(pid), what="the holder to exit")


def start_until_told(gz: Callable[..., Result], repo: Path, receiver: FakeServer,
                     settings_file: Callable[..., Path],
                     tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A background run notified to ``receiver`` that ends once the file returned exists."""
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_desktop=False)
    go = tmp_path / "go"
    data = start_in_background(gz, repo, "sh", "-c", f"while [ ! -e {go} ]; do sleep 0.05; done",
                               env={"GZ_CONFIG_FILE": str(config)})
    return data, go


def test_the_end_of_a_background_run_is_posted_and_given_to_the_hook(
        gz: Callable[..., Result], repo: Path, receiver: FakeServer,
        hook: tuple[list[str], Path], settings_file: Callable[..., Path]) -> None:
    argv, out = hook
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_command=argv,
                           notify_desktop=False)
    env = {"GZ_CONFIG_FILE": str(config)}
    data = start_in_background(gz, repo, "sh", "-c", "exit 3", env=env)
    final = wait_final(repo, data["id"])
    holder_gone(repo, data["id"])
    (document,) = posts(receiver)
    assert (document["event"], document["session_id"], document["status"],
            document["exit_code"]) == ("end", data["id"], "failed", 3)
    assert document["text"] == f"gz-ia: session {data['id']} has ended: failed (exit code 3)"
    (call,) = hook_calls(out)
    assert call["stdin"] == document
    assert call["env"]["GZ_SESSION_ID"] == data["id"]
    assert final["status"] == "failed"
    assert sorted(notify_events(repo, data["id"])) == [
        ("notification sent (command: end)", "OK", None),
        ("notification sent (webhook: end)", "OK", None)]


def test_a_failing_webhook_never_fails_the_session(
        gz: Callable[..., Result], repo: Path, receiver: FakeServer,
        settings_file: Callable[..., Path]) -> None:
    receiver.inject("status", "/hook", status=500)
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_desktop=False,
                           notify_timeout=5)
    data = start_in_background(gz, repo, "true", env={"GZ_CONFIG_FILE": str(config)})
    holder_gone(repo, data["id"])
    record = stored(repo, data["id"])
    assert (record["status"], record["exit_code"], record["end_reason"]) == \
        ("completed", 0, "process_exit")
    assert len(post_requests(receiver)) == 3
    assert notify_events(repo, data["id"]) == [
        ("notification not delivered (webhook: end)", "FAILED",
         f"127.0.0.1:{receiver.port} answered HTTP 500")]


def test_a_run_that_ends_while_a_person_is_attached_is_not_notified(
        gz: Callable[..., Result], repo: Path, receiver: FakeServer, tmp_path: Path,
        settings_file: Callable[..., Path]) -> None:
    data, go = start_until_told(gz, repo, receiver, settings_file, tmp_path)
    record = stored(repo, data["id"])
    with connect(Path(record["holder"]["socket"]), 10.0) as attacher:
        send_request(attacher, {"op": "attach"})
        assert read_reply(attacher)[0]["ok"] is True
        go.touch()
        wait_final(repo, data["id"])
        holder_gone(repo, data["id"])
    assert posts(receiver) == []
    assert notify_events(repo, data["id"]) == []


def test_an_unattached_run_of_the_same_kind_is_notified(
        gz: Callable[..., Result], repo: Path, receiver: FakeServer, tmp_path: Path,
        settings_file: Callable[..., Path]) -> None:
    """The counterpart of the attached case: the same run, nobody attached."""
    data, go = start_until_told(gz, repo, receiver, settings_file, tmp_path)
    go.touch()
    holder_gone(repo, data["id"])
    assert [p["event"] for p in posts(receiver)] == ["end"]


def test_a_session_started_with_no_notify_sends_nothing_even_on_resume(
        gz: Callable[..., Result], repo: Path, receiver: FakeServer,
        settings_file: Callable[..., Path]) -> None:
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_desktop=False)
    env = {"GZ_CONFIG_FILE": str(config)}
    data = start_in_background(gz, repo, "true", env=env, options=("--no-notify",))
    holder_gone(repo, data["id"])
    assert stored(repo, data["id"])["notify"] is False
    resumed = gz("--json", "resume", "-b", data["id"], cwd=repo, env=env)
    assert resumed.exit_code == 0, resumed.stderr
    holder_gone(repo, data["id"])
    assert stored(repo, data["id"])["notify"] is False
    assert posts(receiver) == []
