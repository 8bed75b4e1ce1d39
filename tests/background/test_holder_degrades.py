"""A holder never ends its run for a failure of its own: it degrades and says so.

1,100 connections to its socket (descriptors past 1024), its logs directory deleted under
it before a rotation, an internal error: the agent keeps running and finishes, the record
ends ``completed`` with the agent's exit code, and holder.log, the record's
``holder_warnings`` and the events say what was given up.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import start_background, wait_final, wait_until
from tests.conftest import Result
from tests.supervisor.fakes import wait_for_note

MAX_CONNECTIONS = 128  # gzia.supervisor.control.MAX_CONNECTIONS, as documented

WAITS_FOR_GO = """
print("x" * 200, flush=True)
note("ready", 1)
go = os.path.join(os.environ["FAKE_NOTES"], "go")
while not os.path.exists(go):
    time.sleep(0.02)
for _ in range(100):
    print("y" * 199, flush=True)
time.sleep(0.2)
print("done", flush=True)
"""


def _warning_codes(record: dict[str, object]) -> list[str]:
    warnings = record.get("holder_warnings")
    assert isinstance(warnings, list), record
    return [w["code"] for w in warnings]


def _holder_log(repo: Path, session_id: str) -> str:
    return (repo / ".harness" / "logs" / f"{session_id}.holder.log").read_text()


def test_eleven_hundred_connections_are_refused_past_the_bound_and_the_run_goes_on(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAITS_FOR_GO)
    data = start_background(gz, repo, "waiter")
    wait_for_note(notes, "ready")
    path = data["holder"]["socket"]
    clients: list[socket.socket] = []
    try:
        for _ in range(1100):
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            clients.append(client)
            client.connect(path)  # blocking: waits while the holder's backlog is full
        clients[-1].settimeout(10)
        busy = clients[-1].recv(4096)
        assert json.loads(busy) == {"ok": False, "error": {
            "code": "LOCKED", "message": "busy: the holder serves 128 connections already",
            "retryable": True, "hint": "try again", "details": {}}}
        assert max(c.fileno() for c in clients) > 1024
        poll = gz("--json", "session", "poll", data["id"], cwd=repo)
        assert (poll.json["data"]["status"], poll.json["data"]["holder"]) == (
            "running", "running")
    finally:
        for client in clients:
            client.close()
    sent = wait_until(lambda: (r := gz("--json", "session", "send-keys", data["id"], "k",
                                       cwd=repo)).exit_code == 0 and r, what="a connection")
    assert sent.json["data"]["bytes"] == 1
    (notes / "go").touch()
    final = wait_final(repo, data["id"])
    assert (final["status"], final["exit_code"], final["end_reason"]) == (
        "completed", 0, "process_exit")
    assert _warning_codes(final) == ["connections_refused"]
    assert f"more than {MAX_CONNECTIONS} connections" in _holder_log(repo, data["id"])


def test_logs_directory_deleted_before_a_rotation_stops_only_the_logging(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAITS_FOR_GO)
    result = gz("--json", "exec", "-b", "--", "waiter", cwd=repo,
                env={"GZ_SESSION_LOG_MAX_BYTES": "4096"})
    data = result.json["data"]
    wait_for_note(notes, "ready")
    shutil.rmtree(repo / ".harness" / "logs")
    (notes / "go").touch()  # 20 KB more: several rotations are due
    final = wait_final(repo, data["id"])
    assert (final["status"], final["exit_code"], final["end_reason"]) == (
        "completed", 0, "process_exit")
    assert _warning_codes(final) == ["log_stopped"]
    log = _holder_log(repo, data["id"])
    assert "warning log_stopped: output is no longer logged to " in log
    assert "No such file or directory" in log
    events = (repo / ".harness" / "sessions" / f"{data['id']}.events.jsonl").read_text()
    assert "holder degraded: log_stopped" in events


def test_an_internal_error_of_the_holder_reaches_holder_log(
    gz: Callable[..., Result], repo: Path, tmp_path: Path, run_env: dict[str, str],
) -> None:
    session_id = gz("--json", "exec", "--", "true", cwd=repo).json["data"]["id"]
    spec = {"project": str(repo), "id": session_id, "argv": ["true"], "cwd": str(repo),
            "env": {}, "log_path": str(tmp_path / "out.log"), "log_max_bytes": 1024,
            "window": [24, 80], "socket": str(tmp_path / "no-such-dir" / "h.sock"),
            "watchdog": {}}
    holder = subprocess.run([sys.executable, "-P", "-m", "gzia", "__holder__"],
                            input=json.dumps(spec).encode(), capture_output=True,
                            env=run_env, timeout=60, check=False)
    report = json.loads(holder.stdout)
    assert (report["ok"], report["error"]["code"]) == (False, "IO")  # an OSError: IO
    log = _holder_log(repo, session_id)
    assert "crash:\nTraceback (most recent call last):" in log
    assert "FileNotFoundError" in log


def test_bad_control_messages_get_error_replies_and_the_run_goes_on(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    agent("waiter", WAITS_FOR_GO)
    data = start_background(gz, repo, "waiter")
    wait_for_note(notes, "ready")
    bad = [b"[" * 200_000, b"\xff\xfe", b"[1]", b'{"op": "nope"}', b'{"op": "resize", "rows": "x"}',
           b'{"op": "input", "data": 5}']
    for line in bad:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(10)
            client.connect(data["holder"]["socket"])
            client.sendall(line + b"\n")
            reply = json.loads(client.makefile("rb").readline())
            assert (reply["ok"], reply["error"]["code"]) == (False, "INVALID_INPUT"), line[:40]
    (notes / "go").touch()
    final = wait_final(repo, data["id"])
    assert (final["status"], final["exit_code"]) == ("completed", 0)
