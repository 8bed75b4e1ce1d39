"""``exit_code`` is null until there is one: running and lost sessions have none, whoever
wrote their record (the original Go gz-ia wrote 0 while running), in every rendering."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

import pytest

from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import COMPLETED_ISOLATED, RUNNING_DIRECT, go_record

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _write(project: Project, session_id: str, text: str) -> None:
    project.sessions_dir.mkdir(parents=True, exist_ok=True)
    (project.sessions_dir / f"{session_id}.json").write_text(text)


def _listed(cli: Cli, project: Project) -> dict[str, object]:
    sessions = cli("session", "list", "--json", "-d", str(project.root)).json["data"]["sessions"]
    return {s["id"]: s["exit_code"] for s in sessions}


def test_records_of_earlier_writers_read_null_while_running_or_lost(
        cli: Cli, project: Project) -> None:
    """The Go original wrote 0 while running (Go has no null integer); an earlier gz-ia
    wrote 0 for running and lost sessions, in the layout listing prints as read."""
    _write(project, "0badc0de", go_record(RUNNING_DIRECT, project.root))  # pid 0, from 2025
    _write(project, "3f9a1c7e", go_record(COMPLETED_ISOLATED, project.root))
    for session_id, status in (("abcdef01", "lost"), ("abcdef02", "failed")):
        text = SessionRecord(id=session_id, status=status, started_at="2026-01-01T00:00:00Z",
                             working_dir=str(project.root), end_reason="lost").to_text()
        _write(project, session_id, text.replace('"exit_code": null', '"exit_code": 7'))
    running = SessionRecord(id="abcdef03", pid=_dead_pid(), started_at="2026-01-01T00:00:00Z",
                            working_dir=str(project.root)).to_text()
    _write(project, "abcdef03", running.replace('"exit_code": null', '"exit_code": 0'))

    assert _listed(cli, project) == {"abcdef03": None, "abcdef02": 7, "abcdef01": None,
                                     "3f9a1c7e": 0, "0badc0de": None}
    for session_id in ("0badc0de", "abcdef01", "abcdef03"):
        data = cli("session", "show", session_id, "--json", "-d", str(project.root)).json["data"]
        assert (data["status"], data["exit_code"]) == ("lost", None)
    on_disk = {session_id: json.loads((project.sessions_dir / f"{session_id}.json").read_text())
               for session_id in ("0badc0de", "abcdef01", "abcdef03")}
    assert {k: (v["status"], v["exit_code"]) for k, v in on_disk.items()} == {
        "0badc0de": ("lost", None), "abcdef03": ("lost", None),  # reconciled: written again
        "abcdef01": ("lost", 7)}  # only read: its file stays as it was


@pytest.mark.parametrize("env", [{}, ES])
def test_show_wait_and_metrics_print_a_dash_for_none(
        cli: Cli, project: Project, env: dict[str, str]) -> None:
    store = SessionStore(project)
    store.create(SessionRecord(id="abcdef01", pid=_dead_pid(), provider="shell",
                               started_at="2026-01-01T00:00:00Z", working_dir=str(project.root)))
    root = str(project.root)
    assert cli("session", "show", "abcdef01", "-d", root, env=env).stdout.splitlines()[-1] == (
        "Código de salida: -" if env else "Exit Code:  -")
    wait = cli("session", "wait", "abcdef01", "-d", root, env=env)
    assert (wait.exit_code, wait.stdout) == (1, {
        "en": "abcdef01  lost  exit code: -  end reason: lost\n",
        "es": "abcdef01  perdida  código de salida: -  motivo fin: perdida\n",
    }["es" if env else "en"])
    metrics = cli("session", "metrics", "abcdef01", "-d", root, env=env).stdout
    exit_line = next(line for line in metrics.splitlines() if line.startswith(("Exit", "Cód")))
    assert exit_line.split() == (["Código:", "-"] if env else ["Exit", "code:", "-"])
    assert json.loads((project.sessions_dir / "abcdef01.json").read_text())["exit_code"] is None
