"""session list / show / path through the CLI, human (en, es) and JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import (
    COMPLETED_ISOLATED,
    go_record,
    make_session,
    run_git,
    run_on_terminal,
)

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}


@pytest.fixture
def two_sessions(project: Project) -> Project:
    make_session(project, "abcdef01", permission_level="autonomous", initial_prompt="fix it")
    make_session(project, "12345678", status="failed", exit_code=3,
                 started_at="2026-03-02T08:30:00Z")
    return project


def test_list_human_english(cli: Cli, two_sessions: Project) -> None:
    result = cli("session", "list", "-d", str(two_sessions.root))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "ID          NAME                  STATE      STATUS        PID       PERMISSION    MODE"
        "        STARTED               DURATION\n"
        + "-" * 125 + "\n"
        "12345678    -                     exited     failed        -         supervised    "
        "Worktree    2026-03-02 08:30:00   1m05s\n"
        "abcdef01    fix it                exited     completed     -         autonomous    "
        "Worktree    2026-03-01 10:00:00   1m05s\n"
    )


def test_list_human_spanish_and_direct_mode(cli: Cli, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    from gzia.sessions.project import find_project

    make_session(find_project(plain), "0badc0de", pid=4242, status="killed")
    result = cli("session", "list", "-d", str(plain), env=ES)
    assert result.stdout.splitlines() == [
        "ID          NOMBRE                SITUACIÓN  ESTADO        PID       PERMISO       MODO"
        "        INICIO                DURACIÓN",
        "-" * 125,
        "0badc0de    -                     terminado  detenida      4242      supervisado   "
        "Directo     2026-03-01 10:00:00   1m05s",
    ]


def test_list_empty_in_both_languages(cli: Cli, repo: Path) -> None:
    assert cli("session", "list", "-d", str(repo)).stdout == (
        "✧ No sessions recorded in this project.\n")
    assert cli("session", "list", "-d", str(repo), env=ES).stdout == (
        "✧ No hay sesiones registradas en este proyecto.\n")
    assert cli("session", "list", "--json", "-d", str(repo)).json == {
        "ok": True, "data": {"sessions": []}, "errors": [], "warnings": []}


def test_list_json_has_complete_records(cli: Cli, two_sessions: Project) -> None:
    document = cli("--json", "session", "list", "-d", str(two_sessions.root)).json
    store = SessionStore(two_sessions)
    expected = [store.load("12345678").to_json(), store.load("abcdef01").to_json()]
    assert document == {"ok": True, "data": {"sessions": expected}, "errors": [],
                        "warnings": []}
    assert document["data"]["sessions"][1]["initial_prompt"] == "fix it"


def test_list_json_is_byte_for_byte_the_records_encoded(cli: Cli, two_sessions: Project) -> None:
    root = two_sessions.root
    go_text = go_record(COMPLETED_ISOLATED, root).replace(
        '"exit_code"', '"extra": "ñ",\n  "exit_code"')
    (two_sessions.sessions_dir / "3f9a1c7e.json").write_text(go_text)
    store = SessionStore(two_sessions)
    store.update("abcdef01", lambda r: setattr(r, "initial_prompt", "arregla «esto» 🚀"))
    records = [store.load(i).to_json() for i in ("12345678", "abcdef01", "3f9a1c7e")]
    expected = {"ok": True, "data": {"sessions": records}, "errors": [], "warnings": []}
    result = cli("session", "list", "--json", "-d", str(root))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == json.dumps(expected, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("form", ["stored", "indented"])
def test_list_json_stays_valid_with_a_lone_surrogate(form: str, project: Project) -> None:
    """A real process (its stdout encodes strictly): the escape stays an escape."""
    record = make_session(project, "abcdef01", initial_prompt="x\ud800y")
    if form == "indented":
        (project.sessions_dir / "abcdef01.json").write_text(
            json.dumps(record.to_json(), indent=2))
    for args in (["--json"], []):
        done = subprocess.run([sys.executable, "-m", "gzia", "session", "list", *args, "-d",
                               str(project.root)], capture_output=True, timeout=60, check=False)
        assert (done.returncode, done.stderr) == (0, b"")
        if args:
            [listed] = json.loads(done.stdout)["data"]["sessions"]
            assert listed["initial_prompt"] == "x\ud800y"


def test_control_characters_reach_a_terminal_escaped_and_a_pipe_as_they_are(
    project: Project,
) -> None:
    """An agent-written text must not drive the operator's terminal (real PTY)."""
    make_session(project, "abcdef01", initial_prompt="fix\x1b]0;pwned\x07 it\rX")
    argv = [sys.executable, "-m", "gzia", "session", "show", "abcdef01", "-d", str(project.root)]
    code, on_terminal = run_on_terminal(argv)
    assert code == 0
    assert b"fix\\x1b]0;pwned\\x07 it\\x0dX" in on_terminal
    assert b"\x1b" not in on_terminal
    piped = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    assert b"fix\x1b]0;pwned\x07 it\rX" in piped.stdout


def test_list_reconciles_a_stale_running_record(cli: Cli, project: Project) -> None:
    make_session(project, "abcdef01", status="running", pid=2**22 + 12345)
    [data] = cli("session", "list", "--json", "-d", str(project.root)).json["data"]["sessions"]
    assert (data["status"], data["end_reason"]) == ("lost", "lost")
    assert data == SessionStore(project).load("abcdef01").to_json()


def test_list_reports_unreadable_records_as_warnings(cli: Cli, two_sessions: Project) -> None:
    bad = two_sessions.sessions_dir / "ffffffff.json"
    bad.write_text("{oops")
    document = cli("session", "list", "--json", "-d", str(two_sessions.root)).json
    assert [s["id"] for s in document["data"]["sessions"]] == ["12345678", "abcdef01"]
    [warning] = document["warnings"]
    assert (warning["code"], warning["details"]["path"]) == ("IO", str(bad))
    human = cli("session", "list", "-d", str(two_sessions.root), env=ES)
    assert human.exit_code == 0
    assert human.stderr.startswith(f"Aviso: se omitió el registro de sesión ilegible {bad}: ")


def test_commands_work_from_inside_a_session_worktree(cli: Cli, two_sessions: Project) -> None:
    inside = two_sessions.worktrees_dir / "abcdef01"
    (inside / "sub").mkdir()
    result = cli("session", "list", "--json", cwd=inside / "sub")
    assert [s["id"] for s in result.json["data"]["sessions"]] == ["12345678", "abcdef01"]
    assert cli("session", "path", "abcdef01", cwd=inside).stdout == f"{inside}\n"


def test_group_dir_option_before_the_subcommand(cli: Cli, two_sessions: Project) -> None:
    result = cli("session", "-d", str(two_sessions.root), "show", "abcdef01", "--json")
    assert result.json["data"]["id"] == "abcdef01"


def test_show_human_english(cli: Cli, two_sessions: Project) -> None:
    root = two_sessions.root
    base = run_git(root, "rev-parse", "HEAD").strip()
    result = cli("session", "show", "abcdef01", "-d", str(root))
    assert result.stdout == (
        "❯ Session details: abcdef01\n"
        "Status:     completed\n"
        "PID:        -\n"
        "Provider:   shell\n"
        "Permission: autonomous\n"
        f"Directory:  {root}\n"
        f"Mode:       Isolated worktree ({root}/.harness/worktrees/abcdef01)\n"
        "Branch:     harness/abcdef01\n"
        f"Base:       main ({base[:12]})\n"
        "Prompt:     fix it\n"
        "Started:    2026-03-01T10:00:00Z\n"
        "Finished:   2026-03-01T10:01:05Z\n"
        "End reason: process_exit\n"
        "Exit Code:  0\n"
    )


def test_show_human_spanish_of_a_go_record(cli: Cli, repo: Path) -> None:
    sessions = repo / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "3f9a1c7e.json").write_text(go_record(COMPLETED_ISOLATED, repo))
    result = cli("session", "show", "3f9a", "-d", str(repo), env=ES)
    assert result.stdout == (
        "❯ Detalle de Sesión: 3f9a1c7e\n"
        "Estado:     completada\n"
        "PID:        48213\n"
        "Proveedor:  claude\n"
        "Permisos:   supervisado\n"
        f"Directorio: {repo}\n"
        f"Modo:       Worktree aislado ({repo}/.harness/worktrees/3f9a1c7e)\n"
        "Rama:       harness/3f9a1c7e\n"
        "Prompt:     Arregla los tests\n"
        "Inicio:     2025-06-01T10:15:30.123456789+02:00\n"
        "Fin:        2025-06-01T10:20:31.987654321+02:00\n"
        "Código de salida: 0\n"
    )
    # Reading never rewrote the original's file.
    assert (sessions / "3f9a1c7e.json").read_text() == go_record(COMPLETED_ISOLATED, repo)


def test_show_json_is_the_record(cli: Cli, two_sessions: Project) -> None:
    document = cli("session", "show", "abcdef01", "--json", "-d", str(two_sessions.root)).json
    assert document == {"ok": True, "errors": [], "warnings": [],
                        "data": SessionStore(two_sessions).load("abcdef01").to_json()}


def test_show_missing_session(cli: Cli, repo: Path) -> None:
    result = cli("session", "show", "abcdef09", "-d", str(repo), env=ES)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: sesión 'abcdef09' no encontrada\ngz-ia session list\n"
    document = cli("session", "show", "abcdef09", "--json", "-d", str(repo)).json
    assert document == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "NOT_FOUND", "message": "session 'abcdef09' not found", "retryable": False,
        "hint": "gz-ia session list", "details": {"id": "abcdef09"}}]}


@pytest.mark.parametrize("command", ["show", "path", "delete", "rm", "diff", "read", "merge",
                                     "get", "logs"])
def test_traversal_ids_are_rejected_and_touch_nothing(
    cli: Cli, repo: Path, command: str
) -> None:
    result = cli("session", command, "../../etc", "--json", "-d", str(repo))
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"
    assert result.json["errors"][0]["details"] == {"id": "../../etc"}
    assert not (repo / ".harness").exists()


def test_traversal_id_in_log_is_rejected(cli: Cli, repo: Path) -> None:
    result = cli("session", "log", "../x", "-a", "a", "-s", "READ", "--json", "-d", str(repo))
    assert (result.exit_code, result.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
    assert not (repo / ".harness").exists()


def test_ambiguous_prefix_is_invalid_input(cli: Cli, two_sessions: Project) -> None:
    make_session(two_sessions, "abcdef02")
    result = cli("session", "show", "abcd", "--json", "-d", str(two_sessions.root))
    assert result.exit_code == 2
    assert result.json["errors"][0]["details"] == {"id": "abcd",
                                                   "matches": ["abcdef01", "abcdef02"]}


def test_path_isolated_and_direct(cli: Cli, two_sessions: Project, tmp_path: Path) -> None:
    root = two_sessions.root
    assert cli("session", "path", "abcdef01", "-d", str(root)).stdout == (
        f"{root}/.harness/worktrees/abcdef01\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    from gzia.sessions.project import find_project

    make_session(find_project(plain), "0badc0de")
    assert cli("session", "path", "0badc0de", "--json", "-d", str(plain)).json["data"] == {
        "id": "0badc0de", "path": str(plain), "is_isolated": False}


def test_stale_running_record_shows_as_lost(cli: Cli, project: Project) -> None:
    make_session(project, "abcdef01", status="running", pid=2**22 + 12345)
    data = cli("session", "show", "abcdef01", "--json", "-d", str(project.root)).json["data"]
    assert (data["status"], data["end_reason"]) == ("lost", "lost")
    on_disk = json.loads((project.sessions_dir / "abcdef01.json").read_text())
    assert on_disk["status"] == "lost"


def test_missing_directory_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("session", "list", "--json", "-d", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"
    (tmp_path / "file").write_text("")
    for env, message in (({}, f"Error: '{tmp_path / 'file'}' is not a directory\n"),
                         (ES, f"Error: '{tmp_path / 'file'}' no es un directorio\n")):
        result = cli("session", "list", "-d", str(tmp_path / "file"), env=env)
        assert (result.exit_code, result.stderr) == (2, message)


def test_wrong_argument_count_is_a_usage_error(cli: Cli, repo: Path) -> None:
    assert cli("session", "show", "-d", str(repo)).exit_code == 2
    assert cli("session", "show", "abcdef01", "abcdef02", "-d", str(repo)).exit_code == 2


def test_show_direct_killed_session_in_spanish(cli: Cli, tmp_path: Path) -> None:
    from gzia.sessions.project import find_project

    plain = tmp_path / "plain"
    plain.mkdir()
    make_session(find_project(plain), "0badc0de", status="killed", pid=77, signal=15)
    result = cli("session", "show", "0badc0de", "-d", str(plain), env=ES)
    assert result.stdout == (
        "❯ Detalle de Sesión: 0badc0de\n"
        "Estado:     detenida\n"
        "PID:        77\n"
        "Proveedor:  shell\n"
        "Permisos:   supervisado\n"
        f"Directorio: {plain}\n"
        "Modo:       Directo (sin Git)\n"
        "Inicio:     2026-03-01T10:00:00Z\n"
        "Fin:        2026-03-01T10:01:05Z\n"
        "Motivo fin: fin del proceso\n"
        "Código de salida: 0\n"
    )


def test_path_of_a_record_from_a_moved_project(cli: Cli, two_sessions: Project,
                                               tmp_path: Path) -> None:
    """Scripts ``cd "$(gz-ia session path ID)"``: never into a directory the record names
    outside the project (a moved project, a record edited by hand)."""
    root = two_sessions.root
    old = str(tmp_path / "old-place")
    SessionStore(two_sessions).update("abcdef01", lambda r: setattr(r, "worktree_dir", old))
    assert cli("session", "path", "abcdef01", "-d", str(root)).stdout == (
        f"{root}/.harness/worktrees/abcdef01\n")


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


@pytest.mark.parametrize("env", [{}, ES])
def test_a_lost_session_has_no_duration(cli: Cli, project: Project, env: dict[str, str]) -> None:
    """Its process ended unseen, at an unknown time: no duration from its start to now."""
    from gzia.sessions.record import SessionRecord

    pid = _dead_pid()
    SessionStore(project).create(SessionRecord(
        id="abcdef01", pid=pid, started_at="2025-01-01T00:00:00Z",
        working_dir=str(project.root)))
    row = cli("session", "list", "-d", str(project.root), env=env).stdout.splitlines()[2]
    assert row.split() == ["abcdef01", "-", "terminado" if env else "exited",
                           "perdida" if env else "lost", str(pid),
                           "supervisado" if env else "supervised", "Directo" if env else "Direct",
                           "2025-01-01", "00:00:00", "-"]
    data = cli("session", "show", "abcdef01", "--json", "-d", str(project.root)).json["data"]
    assert (data["status"], data["duration_ms"]) == ("lost", None)
    listed = cli("session", "list", "--json", "-d", str(project.root)).json["data"]
    assert listed["sessions"][0]["duration_ms"] is None


def test_a_lost_record_written_with_a_duration_lists_none(cli: Cli, project: Project) -> None:
    """An older gz-ia wrote lost records with the time up to when it noticed."""
    make_session(project, "abcdef01", status="lost")
    row = cli("session", "list", "-d", str(project.root)).stdout.splitlines()[2]
    assert row.split()[-1] == "-" and row.split()[-7] == "lost"


@pytest.mark.parametrize(("env", "message"), [
    ({}, "Error: invalid session id 'abc': expected 8 hexadecimal characters, or a unique "
         "prefix of 4 or more\ngz-ia session list\n"),
    (ES, "Error: id de sesión inválido 'abc': se esperan 8 caracteres hexadecimales, o un "
         "prefijo único de 4 o más\ngz-ia session list\n"),
])
def test_a_too_short_id_says_a_prefix_of_4_works(
    cli: Cli, two_sessions: Project, env: dict[str, str], message: str
) -> None:
    root = str(two_sessions.root)
    assert cli("session", "show", "abc", "-d", root, env=env) == Result(2, "", message)
    assert cli("session", "show", "abcd", "--json", "-d", root).json["data"]["id"] == "abcdef01"


@pytest.mark.parametrize(("env", "summary"), [
    ({}, "Manage local agent sessions (list, show, path, rename, delete, diff, merge, prune, "
         "log, logs, wait, stop, kill, resume, poll, output, send-keys, paste, submit, attach, "
         "metrics, push, pr)."),
    (ES, "Gestiona sesiones agénticas locales (list, show, path, rename, delete, diff, merge, "
         "prune, log, logs, wait, stop, kill, resume, poll, output, send-keys, paste, submit, "
         "attach, metrics, push, pr)."),
])
def test_the_session_summary_names_every_visible_subcommand(
    cli: Cli, env: dict[str, str], summary: str
) -> None:
    page = cli("session", "--help", env=env).stdout
    assert " ".join(page.split("\n\n")[1].split()) == summary
    listed = {line.split()[0] for line in page.split("\n\n")[-1].splitlines()[1:]
              if line.startswith("  ") and not line.startswith("   ")}
    named = set(summary[summary.index("(") + 1:-2].split(", "))
    assert listed == named
