"""poll, output, send-keys, paste, submit on real background runs (real PTYs)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.background.conftest import start_background, wait_final, wait_until
from tests.background.test_start import WAIT_FOR_GO
from tests.conftest import Result
from tests.run.conftest import GzProcess
from tests.supervisor.fakes import wait_for_note

ECHO_LINES = ["sh", "-c", 'while IFS= read -r line; do printf "got:%s\\n" "$line"; done']
SPANISH = {"GZ_LANG": "es"}


def _log(data: dict[str, object]) -> bytes:
    return Path(str(data["log_path"])).read_bytes()


def _wait_log(data: dict[str, object], needle: bytes) -> bytes:
    found: bytes = wait_until(lambda: needle in _log(data) and _log(data), what=repr(needle))
    return found


def test_send_keys_submit_and_paste_reach_the_agent(gz: Callable[..., Result], repo: Path) -> None:
    data = start_background(gz, repo, *ECHO_LINES)
    session = str(data["id"])
    sent = gz("--json", "session", "send-keys", session, "hello world", "Enter", cwd=repo)
    assert sent.json == {"ok": True, "data": {"id": session, "bytes": 12}, "errors": [],
                         "warnings": []}
    _wait_log(data, b"got:hello world\r\n")
    assert gz("session", "submit", session, "second", cwd=repo).stdout == (
        f"✓ 7 bytes sent to session '{session}'.\n")
    _wait_log(data, b"got:second\r\n")
    pasted = gz("--json", "session", "paste", session, "one\ntwo", cwd=repo)
    assert pasted.json["data"] == {"id": session, "bytes": 19}
    gz("session", "send-keys", session, "Enter", cwd=repo)
    log = _wait_log(data, b"got:two\x1b[201~\r\n")
    assert b"got:\x1b[200~one\r\n" in log
    gz("session", "send-keys", session, "C-d", cwd=repo)  # end of input: the loop ends
    final = wait_final(repo, session)
    assert (final["status"], final["exit_code"]) == ("completed", 0)


def test_paste_reads_stdin_and_c_c_interrupts(gz_start: GzProcess, gz: Callable[..., Result],
                                             repo: Path) -> None:
    data = start_background(gz, repo, *ECHO_LINES)
    session = str(data["id"])
    paste = subprocess.Popen(
        [sys.executable, "-m", "gzia", "session", "paste", session, "-"], cwd=repo,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, _ = paste.communicate("from stdin", timeout=60)
    assert paste.returncode == 0, out
    gz("session", "send-keys", session, "Enter", cwd=repo)
    _wait_log(data, b"got:\x1b[200~from stdin\x1b[201~\r\n")
    gz("session", "send-keys", session, "C-c", cwd=repo)
    final = wait_final(repo, session)
    assert (final["status"], final["signal"], final["exit_code"]) == ("killed", 2, 130)


def test_poll_reports_state_bytes_and_idle_time(gz: Callable[..., Result], repo: Path) -> None:
    data = start_background(gz, repo, *ECHO_LINES)
    session = str(data["id"])
    gz("session", "submit", session, "ping", cwd=repo)
    _wait_log(data, b"got:ping\r\n")
    running = gz("--json", "session", "poll", session, cwd=repo).json["data"]
    assert set(running) == {"id", "status", "exit_code", "end_reason", "pid", "holder",
                            "output_bytes", "idle_s", "attached", "name", "state",
                            "state_since", "state_reason"}
    assert (running["status"], running["holder"], running["attached"]) == (
        "running", "running", 0)
    assert running["output_bytes"] == len(b"ping\r\ngot:ping\r\n")
    assert 0 <= running["idle_s"] < 30
    wait_until(lambda: gz("--json", "session", "poll", session, cwd=repo).json["data"]["state"]
               == "idle", what="the shell to read its terminal again")
    spanish = gz("session", "poll", session, cwd=repo, env=SPANISH).stdout
    assert spanish.startswith(f"{session}  en ejecución  salida -  16 bytes  inactiva ")
    assert spanish.endswith("s  proceso en ejecución\n")
    gz("session", "send-keys", session, "C-d", cwd=repo)
    wait_final(repo, session)
    wait_until(lambda: gz("--json", "session", "poll", session, cwd=repo).json["data"]["holder"]
               == "gone", what="the holder to leave")
    done = gz("--json", "session", "poll", session, cwd=repo).json["data"]
    assert (done["status"], done["exit_code"], done["end_reason"], done["output_bytes"]) == (
        "completed", 0, "process_exit", running["output_bytes"])
    assert done["state"] == "exited"


def test_output_rendered_raw_tail_and_json(gz: Callable[..., Result], repo: Path) -> None:
    script = 'printf "\\033[1;31mred\\033[0m\\n10%%\\r100%%\\nlast\\n"'
    data = start_background(gz, repo, "sh", "-c", script)
    session = str(data["id"])
    wait_final(repo, session)
    assert gz("session", "output", session, cwd=repo).stdout == "red\n100%\nlast\n"
    assert gz("session", "output", session, "--tail", "1", cwd=repo).stdout == "last\n"
    raw = subprocess.run([sys.executable, "-m", "gzia", "session", "output", session, "--raw"],
                         cwd=repo, capture_output=True, check=True, timeout=60).stdout
    assert raw == b"\x1b[1;31mred\x1b[0m\r\n10%\r100%\r\nlast\r\n"
    document = gz("--json", "session", "output", session, cwd=repo).json
    assert document == {"ok": True, "data": {"id": session, "bytes": len(raw),
                                             "text": "red\n100%\nlast\n"},
                        "errors": [], "warnings": []}


def test_output_follow_prints_until_the_run_ends(gz_start: GzProcess, gz: Callable[..., Result],
                                                repo: Path) -> None:
    data = start_background(gz, repo, *ECHO_LINES)
    session = str(data["id"])
    gz("session", "submit", session, "before", cwd=repo)
    _wait_log(data, b"got:before")
    follower = gz_start("session", "output", session, "-f", cwd=repo)
    gz("session", "submit", session, "after", cwd=repo)
    _wait_log(data, b"got:after")
    gz("session", "send-keys", session, "C-d", cwd=repo)
    out, err = follower.communicate(timeout=60)
    assert follower.returncode == 0, err
    assert out == "before\ngot:before\nafter\ngot:after\n"


@pytest.mark.parametrize(("env", "message"), [
    ({}, "session '{id}' is not running (current status: completed)"),
    (SPANISH, "la sesión '{id}' no está activa (estado actual: completed)"),
])
def test_input_to_a_finished_session_is_a_conflict(
    gz: Callable[..., Result], repo: Path, env: dict[str, str], message: str,
) -> None:
    data = start_background(gz, repo, "true")
    session = str(data["id"])
    wait_final(repo, session)
    for args in (("send-keys", session, "x"), ("submit", session), ("paste", session, "x")):
        result = gz("--json", "session", *args, cwd=repo, env=env)
        assert result.exit_code == 1
        error = result.json["errors"][0]
        assert (error["code"], error["message"]) == ("CONFLICT", message.format(id=session))


@pytest.mark.parametrize(("env", "message"), [
    ({}, "session '{id}' was not started with -b: there is no holder to talk to"),
    (SPANISH, "la sesión '{id}' no se inició con -b: no hay proceso con el que hablar"),
])
def test_input_to_a_foreground_run_says_it_has_no_holder(  # noqa: PLR0917 - pytest fixtures
    gz_start: GzProcess, gz: Callable[..., Result], repo: Path, notes: Path,
    agent: Callable[[str, str], Path], env: dict[str, str], message: str,
) -> None:
    agent("waiter", WAIT_FOR_GO)
    foreground = gz_start("--json", "exec", "--", "waiter", cwd=repo)
    wait_for_note(notes, "ready", timeout=30)
    [record] = (repo / ".harness" / "sessions").glob("*.json")
    result = gz("--json", "session", "send-keys", record.stem, "x", cwd=repo, env=env)
    (notes / "go").write_text("1")
    foreground.communicate(timeout=60)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["message"]) == ("CONFLICT", message.format(id=record.stem))


@pytest.mark.parametrize(("env", "one", "many"), [
    ({}, "✓ 1 byte sent to session '{id}'.\n", "✓ 2 bytes sent to session '{id}'.\n"),
    (SPANISH, "✓ 1 byte enviado a la sesión '{id}'.\n",
     "✓ 2 bytes enviados a la sesión '{id}'.\n"),
])
def test_input_lines_count_bytes_in_both_languages(
    gz: Callable[..., Result], repo: Path, env: dict[str, str], one: str, many: str,
) -> None:
    data = start_background(gz, repo, *ECHO_LINES)
    session = str(data["id"])
    assert gz("session", "send-keys", session, "x", cwd=repo, env=env).stdout == one.format(
        id=session)
    assert gz("session", "submit", session, "y", cwd=repo, env=env).stdout == many.format(
        id=session)
    gz("session", "send-keys", session, "C-d", cwd=repo)
    wait_final(repo, session)
