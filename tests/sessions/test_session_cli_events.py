"""session log / logs [-f] through the CLI; the event file format of the original."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.events import append_event, new_event, read_events
from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from gzia.supervisor.procinfo import process_start_time
from tests.conftest import Result
from tests.sessions.session_testkit import make_session, run_on_terminal
from tests.waiting import is_sleeping_in_a_timer, wait_for

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"


@pytest.fixture
def session(project: Project) -> Project:
    make_session(project, SID)
    return project


def test_log_appends_an_event_in_the_original_format(cli: Cli, session: Project) -> None:
    result = cli("session", "log", SID, "-a", "leer archivos", "-s", "read", "--status", "ok",
                 "-r", "planner", "--duration", "15", "-d", str(session.root), env=ES)
    assert (result.exit_code, result.stdout) == (
        0, "✓ Evento registrado exitosamente para la sesión 'abcdef01'.\n")
    [line] = (session.sessions_dir / f"{SID}.events.jsonl").read_text().splitlines()
    event = json.loads(line)
    assert list(event) == ["id", "session_id", "agent_id", "role", "action", "stage", "status",
                           "timestamp", "duration_ms"]
    assert {k: event[k] for k in list(event)[1:7]} == {
        "session_id": SID, "agent_id": "orchestrator", "role": "planner",
        "action": "leer archivos", "stage": "READ", "status": "OK"}
    assert len(event["id"]) == 12 and event["timestamp"].endswith("Z")


def test_log_json_returns_the_event(cli: Cli, session: Project) -> None:
    data = cli("session", "log", SID, "-a", "x", "-s", "PENDING", "--json",
               "-d", str(session.root)).json["data"]
    assert (data["stage"], data["status"], data["error"], data["metadata"]) == (
        "PENDING", None, None, None)


@pytest.mark.parametrize(("args", "message"), [
    (("-s", "DONE"), "Error: etapa inválida: 'DONE' (válidos: READ, PENDING, FINISH)\n"),
    (("-s", "READ", "--status", "MAYBE"),
     "Error: estado inválido: 'MAYBE' (válidos: OK, FAILED)\n"),
    (("-s", "READ", "--duration", "-4"),
     "Error: duración inválida: '-4' (milisegundos, 0 o más)\n"),
])
def test_log_validates_stage_status_duration(cli: Cli, session: Project,
                                             args: tuple[str, ...], message: str) -> None:
    result = cli("session", "log", SID, "-a", "x", *args, "-d", str(session.root), env=ES)
    assert (result.exit_code, result.stderr) == (2, message)
    assert not (session.sessions_dir / f"{SID}.events.jsonl").exists()


def test_log_requires_action_and_stage(cli: Cli, session: Project) -> None:
    result = cli("session", "log", SID, "-s", "READ", "--json", "-d", str(session.root))
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "MISSING_REQUIRED"


def test_log_to_an_unknown_session_is_refused(cli: Cli, session: Project) -> None:
    result = cli("session", "log", "0000aaaa", "-a", "x", "-s", "READ", "-d", str(session.root))
    assert result.exit_code == 1
    assert not (session.sessions_dir / "0000aaaa.events.jsonl").exists()


def test_logs_human_and_json(cli: Cli, session: Project) -> None:
    store = SessionStore(session)
    first = new_event(SID, "Sesión de chat iniciada", "PENDING")
    first.timestamp = "2026-03-01T10:00:00.5Z"
    second = new_event(SID, "Sesión finalizada con fallas", "FINISH", status="FAILED",
                       role="coder", agent_id="claude", error="exit status 2")
    second.timestamp = "2026-03-01T10:01:05Z"
    append_event(store, first)
    append_event(store, second)
    result = cli("session", "logs", SID, "-d", str(session.root))
    assert result.stdout == (
        "[10:00:00] [orchestrator] [PENDING] Sesión de chat iniciada\n"
        "[10:01:05] [coder/claude] [FINISH] Sesión finalizada con fallas (status: FAILED)"
        " error: exit status 2\n")
    data = cli("session", "logs", SID, "--json", "-d", str(session.root)).json["data"]
    assert data == {"id": SID, "events": [first.to_json(), second.to_json()]}


def test_logs_empty(cli: Cli, session: Project) -> None:
    assert cli("session", "logs", SID, "-d", str(session.root), env=ES).stdout == (
        "✧ No hay eventos registrados para la sesión 'abcdef01'.\n")


def test_logs_skips_and_reports_a_damaged_line(cli: Cli, session: Project) -> None:
    store = SessionStore(session)
    append_event(store, new_event(SID, "ok", "READ"))
    with store.events_path(SID).open("a") as handle:
        handle.write("{broken\n")
    append_event(store, new_event(SID, "after", "READ"))
    document = cli("session", "logs", SID, "--json", "-d", str(session.root)).json
    assert [e["action"] for e in document["data"]["events"]] == ["ok", "after"]
    assert document["warnings"][0]["details"] == {"line": 2}


@pytest.mark.parametrize(("env", "summary"), [
    ({}, "Warning: skipped 19995 more unreadable event lines in {path} "
         "(lines 7 to 20001)\n"),
    (ES, "Aviso: se omitieron otras 19995 líneas de evento ilegibles en {path} "
         "(líneas 7 a 20001)\n"),
])
def test_many_damaged_lines_give_a_few_warnings_then_one_summary(
    cli: Cli, session: Project, env: dict[str, str], summary: str
) -> None:
    store = SessionStore(session)
    append_event(store, new_event(SID, "first", "READ"))
    with store.events_path(SID).open("a") as handle:
        handle.write("{broken\n" * 20_000)
    append_event(store, new_event(SID, "last", "READ"))
    path = store.events_path(SID)
    document = cli("session", "logs", SID, "--json", "-d", str(session.root)).json
    assert [e["action"] for e in document["data"]["events"]] == ["first", "last"]
    assert [w["details"] for w in document["warnings"]] == [
        *({"line": n} for n in range(2, 7)),
        {"count": 19_995, "first_line": 7, "last_line": 20_001}]
    human = cli("session", "logs", SID, "-d", str(session.root), env=env)
    assert human.exit_code == 0
    lines = human.stderr.splitlines(keepends=True)
    assert len(lines) == 6
    assert lines[-1] == summary.format(path=path)


def test_a_partly_written_last_line_is_not_read_yet(session: Project) -> None:
    store = SessionStore(session)
    append_event(store, new_event(SID, "whole", "READ"))
    with store.events_path(SID).open("a") as handle:
        handle.write('{"id": "abc", "session_')
    batch = read_events(store, SID)
    assert [e.action for e in batch.events] == ["whole"]
    assert batch.unreadable_lines == []


def test_logs_follow_stops_when_the_session_stops(
    cli: Cli, project: Project, tmp_path: Path
) -> None:
    done = tmp_path / "event-written"
    waits_for_done = (f"import os, time\nwhile not os.path.exists({str(done)!r}):\n"
                      "    time.sleep(0.02)\n")
    agent = subprocess.Popen([sys.executable, "-c", waits_for_done])
    try:
        make_session(project, SID, status="running", pid=agent.pid,
                     pid_start_time=process_start_time(agent.pid))
        store = SessionStore(project)
        append_event(store, new_event(SID, "before", "PENDING"))

        def writer() -> None:
            time.sleep(0.3)
            append_event(store, new_event(SID, "during", "READ"))
            done.touch()  # the fake agent exits only after this event is written

        thread = threading.Thread(target=writer)
        thread.start()
        started = time.monotonic()
        result = cli("session", "logs", SID, "-f", "--json", "-d", str(project.root))
        thread.join()
        assert time.monotonic() - started < 10
        assert [e["action"] for e in result.json["data"]["events"]] == ["before", "during"]
        assert store.load(SID).status == "lost"  # the fake agent never wrote its outcome
    finally:
        agent.kill()
        agent.wait()


def test_logs_follow_stops_when_the_session_is_deleted(cli: Cli, project: Project) -> None:
    agent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        make_session(project, SID, status="running", pid=agent.pid,
                     pid_start_time=process_start_time(agent.pid))
        store = SessionStore(project)
        append_event(store, new_event(SID, "only", "READ"))
        deleter = threading.Timer(0.3, lambda: store.delete(SID))
        deleter.start()
        result = cli("session", "logs", SID, "-f", "-d", str(project.root))
        deleter.join()
        assert result.exit_code == 0
        assert result.stdout.endswith("[READ] only\n")
    finally:
        agent.kill()
        agent.wait()


FIFO_MESSAGES = {
    "en": "Error: the event log {path} is not a regular file (a FIFO, a device or a "
          "directory); gz-ia neither reads nor writes it\n",
    "es": "Error: el registro de eventos {path} no es un archivo regular (un FIFO, un "
          "dispositivo o un directorio); gz-ia no lo lee ni lo escribe\n",
}
EVENT_COMMANDS = {
    "logs": ("logs", SID),
    "logs -f": ("logs", SID, "-f"),
    "log": ("log", SID, "-a", "x", "-s", "READ"),
}


@pytest.fixture
def fifo_events(session: Project) -> Path:
    path = session.sessions_dir / f"{SID}.events.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.timeout(20)
@pytest.mark.parametrize("command", EVENT_COMMANDS)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_fifo_named_like_the_events_file_is_an_io_error_not_a_hang(
    cli: Cli, session: Project, fifo_events: Path, command: str, lang: str
) -> None:
    args = ("session", *EVENT_COMMANDS[command], "-d", str(session.root))
    human = cli(*args, env={"GZ_LANG": lang})
    assert (human.exit_code, human.stdout) == (1, "")
    assert human.stderr == FIFO_MESSAGES[lang].format(path=fifo_events)
    document = cli(*args, "--json").json
    assert document["ok"] is False and document["data"] is None
    [error] = document["errors"]
    assert (error["code"], error["details"]["path"]) == ("IO", str(fifo_events))
    assert stat.S_ISFIFO(fifo_events.lstat().st_mode)


@pytest.mark.timeout(20)
def test_appending_never_writes_into_a_fifo_being_read(
    cli: Cli, session: Project, fifo_events: Path
) -> None:
    """With a reader at the other end, opening would succeed: the file type still refuses."""
    reader = os.open(fifo_events, os.O_RDONLY | os.O_NONBLOCK)
    try:
        result = cli("session", "log", SID, "-a", "x", "-s", "READ", "--json",
                     "-d", str(session.root))
        assert (result.exit_code, result.json["errors"][0]["code"]) == (1, "IO")
        assert os.read(reader, 100) == b""  # the writer came and went without a byte
    finally:
        os.close(reader)


def test_an_events_file_linked_to_a_device_is_neither_read_nor_written(
    cli: Cli, session: Project
) -> None:
    (session.sessions_dir / f"{SID}.events.jsonl").symlink_to("/dev/zero")
    for command in EVENT_COMMANDS.values():  # a link is refused before its target is opened
        result = cli("session", *command, "--json", "-d", str(session.root))
        assert (result.exit_code, result.json["errors"][0]["code"]) == (1, "SAFETY_BLOCK")


@pytest.mark.timeout(20)
def test_a_run_whose_events_file_is_a_fifo_still_records_its_outcome(
    session: Project, fifo_events: Path
) -> None:
    """The event log never decides whether a run succeeds (nor hangs it)."""
    from gzia.sessions.events import log_lifecycle_event

    log_lifecycle_event(SessionStore(session), SID, "session finished", "FINISH", failed=False)
    assert stat.S_ISFIFO(fifo_events.lstat().st_mode)
@pytest.mark.parametrize(("signum", "exit_code", "code"), [
    (signal.SIGINT, 130, "INTERRUPTED"), (signal.SIGTERM, 143, "TERMINATED")])
def test_logs_follow_stopped_by_a_signal_still_reports_the_events(
    project: Project, signum: int, exit_code: int, code: str
) -> None:
    agent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        make_session(project, SID, status="running", pid=agent.pid,
                     pid_start_time=process_start_time(agent.pid))
        append_event(SessionStore(project), new_event(SID, "seen", "READ"))
        follower = subprocess.Popen(
            [sys.executable, "-m", "gzia", "--json", "session", "logs", SID, "-f", "-d",
             str(project.root)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wait_for(lambda: is_sleeping_in_a_timer(follower.pid),
                 "the follower to read the events and wait for more")
        follower.send_signal(signum)
        stdout, stderr = follower.communicate(timeout=30)
        assert follower.returncode == exit_code, stderr
        document = json.loads(stdout)
        assert [e["action"] for e in document["data"]["events"]] == ["seen"]
        assert document["data"]["id"] == SID
        assert [e["code"] for e in document["errors"]] == [code]
    finally:
        agent.kill()
        agent.wait()


def test_event_fields_and_the_launch_line_reach_a_terminal_escaped(
    cli: Cli, session: Project
) -> None:
    """Texts an agent (or a hostile command line) chose must not drive the operator's
    terminal: shown escaped on a real PTY, as every other human output is."""
    title = "\x1b]0;pwned\x07"
    cli("session", "log", SID, "-a", f"act{title}", "-s", "READ", "-r", f"role{title}",
        "--agent", f"agent{title}", "--error", "err\x1b[2J", "-d", str(session.root))
    code, shown = run_on_terminal(
        [sys.executable, "-m", "gzia", "session", "logs", SID, "-d", str(session.root)])
    assert code == 0
    assert b"\x1b" not in shown
    for text in (b"act", b"role", b"agent"):
        assert text + b"\\x1b]0;pwned\\x07" in shown
    assert b"err\\x1b[2J" in shown
    code, shown = run_on_terminal(
        [sys.executable, "-m", "gzia", "exec", "--", "echo", f"x{title}"], cwd=session.root)
    launch = shown.split(b"\r\n", 1)[0]
    assert code == 0
    assert launch.startswith(b"\xe2\x9d\xaf\xe2\x9d\xaf Running echo 'x\\x1b]0;pwned\\x07' ")
