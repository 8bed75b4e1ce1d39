"""gz-ia session kill / resume / continue through the command line, and the README demo."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.run.conftest import GzProcess, git, stored_record
from tests.run.test_kill_and_signals import only_session_id, wait_for_pid_recorded
from tests.supervisor.fakes import noted_pids, pid_running, wait_for_note

Gz = Callable[..., Result]

STUBBORN = "ignore_term()\nfork_grandchild()\nnote('ready', 1)\nwhile True:\n    time.sleep(1)\n"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_session_kill_from_another_terminal_stops_a_foreground_exec(
    gz_start: GzProcess, agent: Any, repo: Path, notes: Path, lang: str
):
    agent("stubborn", STUBBORN)
    running = gz_start("exec", "--", "stubborn", cwd=repo)
    wait_for_note(notes, "grandchild.pid")
    session_id = only_session_id(repo)
    pid = wait_for_pid_recorded(repo, session_id)["pid"]

    killer = gz_start("session", "kill", session_id, cwd=repo, env={"GZ_LANG": lang})
    out, err = killer.communicate(timeout=30)

    assert killer.returncode == 0, err
    assert out == {
        "en": f"✓ Session '{session_id}' (PID {pid}) stopped.\n",
        "es": f"✓ Sesión '{session_id}' (PID {pid}) finalizada con éxito.\n",
    }[lang]
    assert running.wait(30) == 143
    running.communicate()
    record = stored_record(repo, session_id)
    assert (record["status"], record["end_reason"], record["signal"]) == ("killed", "killed", 9)
    assert [p for p in noted_pids(notes) if pid_running(p)] == []
    events = [json.loads(line) for line in
              (repo / ".harness" / "sessions" / f"{session_id}.events.jsonl").open()]
    killed = {"en": f"session killed (kill PID {pid})",  # in the killer's language
              "es": f"Sesión finalizada manualmente (kill PID {pid})"}[lang]
    assert sorted((e["action"], e["stage"], e["status"]) for e in events
                  if e.get("type") != "state") == sorted([
        ("exec session started", "PENDING", None),
        (killed, "FINISH", "FAILED"),
        ("session finished", "FINISH", "FAILED"),
    ])


def test_session_kill_json_returns_the_record(
    gz: Gz, gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("cooperative", "note('ready', 1)\nwhile True:\n    time.sleep(1)\n")
    running = gz_start("exec", "--", "cooperative", cwd=repo)
    wait_for_note(notes, "ready")
    session_id = only_session_id(repo)
    wait_for_pid_recorded(repo, session_id)

    killed = gz("--json", "session", "kill", session_id[:5], cwd=repo)

    assert running.wait(30) == 143
    running.communicate()
    document = killed.json
    assert (document["ok"], document["errors"]) == (True, [])
    assert document["data"]["id"] == session_id
    assert (document["data"]["status"], document["data"]["signal"]) == ("killed", 15)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_session_kill_of_a_vanished_process_reports_lost(gz: Gz, repo: Path, lang: str):
    gone = subprocess.Popen(["true"])
    gone.wait()
    SessionStore(find_project(repo)).create(SessionRecord(
        id="0badcafe", pid=gone.pid, status="running", started_at="2026-01-01T00:00:00Z",
        working_dir=str(repo)))

    result = gz("session", "kill", "0badcafe", cwd=repo, env={"GZ_LANG": lang})

    assert result.exit_code == 0
    assert result.stdout == {
        "en": f"✧ Session '0badcafe' was no longer running (PID {gone.pid} had vanished): "
              "marked lost.\n",
        "es": f"✧ La sesión '0badcafe' ya no estaba en ejecución (el PID {gone.pid} había "
              "desaparecido): marcada como perdida (lost).\n",
    }[lang]
    assert stored_record(repo, "0badcafe")["status"] == "lost"


def test_session_kill_of_a_finished_session_is_an_error(gz: Gz, agent: Any, repo: Path):
    agent("done", "sys.exit(0)\n")
    assert gz("exec", "--", "done", cwd=repo).exit_code == 0
    session_id = only_session_id(repo)

    result = gz("session", "kill", session_id, cwd=repo, env={"GZ_LANG": "es"})

    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: la sesión '{session_id}' no está activa (estado actual: completed)\n")


def test_session_kill_rejects_a_path_as_id(gz: Gz, repo: Path):
    result = gz("--json", "session", "kill", "../../etc", cwd=repo)

    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"
    assert not (repo / ".harness").exists()


@pytest.mark.parametrize("name", ["resume", "continue"])
def test_session_resume_and_its_alias_rerun_an_exec_session(
    gz: Gz, agent: Any, repo: Path, notes: Path, name: str
):
    agent("count", "n = len([f for f in os.listdir('.') if f.startswith('run-')])\n"
                   "open('run-%d' % n, 'w').close()\n")
    first = gz("--json", "exec", "--", "count", cwd=repo).json["data"]

    result = gz("--json", "session", name, first["id"], cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert (record["id"], record["status"], record["command"]) == (
        first["id"], "completed", ["count"])
    worktree = Path(first["worktree_dir"])
    assert sorted(p.name for p in worktree.glob("run-*")) == ["run-0", "run-1"]


@pytest.mark.pyz
def test_readme_demo_through_the_built_zipapp(run_pyz: Callable[..., Result], repo: Path):
    exec_result = run_pyz(
        "exec", "--", "sh", "-c", "echo hi > hello.txt && git add hello.txt && git commit -qm hi",
        cwd=repo)
    assert exec_result.exit_code == 0, exec_result.stderr

    listed = run_pyz("--json", "session", "list", cwd=repo)
    sessions = json.loads(listed.stdout)["data"]["sessions"]
    assert [(s["status"], s["mode"], s["is_isolated"]) for s in sessions] == [
        ("completed", "exec", True)]

    merged = run_pyz("session", "merge", sessions[0]["id"], cwd=repo)
    assert merged.exit_code == 0, merged.stderr
    assert (repo / "hello.txt").read_text() == "hi\n"
    assert git(repo, "log", "--format=%s", "-1") == "hi"
