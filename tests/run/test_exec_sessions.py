"""gz-ia exec: a command as a session in an isolated worktree, every way it can end."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import git, normalized, stored_record

Gz = Callable[..., Result]

EDIT_AND_COMMIT = """
with open("feature.txt", "w") as handle:
    handle.write("done by the agent\\n")
subprocess.run(["git", "add", "feature.txt"], check=True)
subprocess.run(["git", "commit", "-qm", "agent work"], check=True)
print("agent finished")
"""


def expected_record(repo: Path, **changes: Any) -> dict[str, Any]:
    record = {
        "id": "<id>", "pid": "<pid>", "provider": "shell", "status": "completed",
        "permission_level": "supervised", "working_dir": str(repo), "initial_prompt": None,
        "started_at": "<started_at>", "finished_at": "<finished_at>",
        "duration_ms": "<duration_ms>", "exit_code": 0, "is_isolated": True,
        "worktree_dir": "<worktree_dir>", "branch_name": "<branch_name>", "profiles": None,
        "schema_version": 2, "base_branch": "main", "base_commit": "<base_commit>",
        "pgid": "<pgid>", "pid_start_time": "<pid_start_time>",
        "owner_pid": "<owner_pid>", "owner_start_time": "<owner_start_time>",
        "end_reason": "process_exit",
        "signal": None, "mode": "exec", "conversation_id": None, "log_path": None,
        "merged_at": None, "merged_commit": None, "updated_at": "<updated_at>",
        "labels": None, "idempotency_key": None,
        "command": ["edit-and-commit"], "state": "exited", "state_since": "<state_since>",
    }
    record.update(changes)
    return record


def test_exec_runs_in_a_worktree_and_returns_the_record(gz: Gz, agent: Any, repo: Path):
    agent("edit-and-commit", EDIT_AND_COMMIT)
    result = gz("--json", "exec", "--", "edit-and-commit", cwd=repo)

    assert result.exit_code == 0, result.stderr
    document = result.json
    assert document["ok"] is True and document["errors"] == [] and document["warnings"] == []
    record = document["data"]
    assert normalized(record) == expected_record(repo)
    assert stored_record(repo, record["id"]) == record
    assert record["pgid"] == record["pid"]
    assert "agent finished" in result.stderr  # JSON mode: the agent's stdout goes to stderr
    branch = f"harness/{record['id']}"
    assert git(repo, "log", "--format=%s", "-1", branch) == "agent work"
    assert git(repo, "show", f"{branch}:feature.txt") == "done by the agent"
    assert not (repo / "feature.txt").exists()  # the base working tree is untouched
    assert record["base_commit"] == git(repo, "rev-parse", "HEAD")
    events = [json.loads(line) for line in
              (repo / ".harness" / "sessions" / f"{record['id']}.events.jsonl").open()]
    events = [e for e in events if e.get("type") != "state"]  # pinned in tests/sessions/
    assert [(e["action"], e["stage"], e["status"], e["agent_id"]) for e in events] == [
        ("exec session started", "PENDING", None, "gz-ia"),
        ("session finished", "FINISH", "OK", "gz-ia"),
    ]


def _events(repo: Path, session_id: str) -> list[tuple[str, str, str | None]]:
    path = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    return [(e["action"], e["stage"], e["status"]) for e in map(json.loads, path.open())
            if e.get("type") != "state"]  # the agent's states: tests/sessions/test_agent_state


def test_spanish_runs_write_the_originals_event_texts(gz: Gz, agent: Any, repo: Path):
    """The original wrote 'Sesión de chat iniciada' and 'Sesión finalizada ...'."""
    agent("edit-and-commit", EDIT_AND_COMMIT)
    agent("fails", "sys.exit(3)\n")
    spanish = {"GZ_LANG": "es"}
    done = gz("--json", "exec", "--", "edit-and-commit", cwd=repo, env=spanish).json["data"]
    assert _events(repo, done["id"]) == [
        ("Sesión de exec iniciada", "PENDING", None),
        ("Sesión finalizada exitosamente", "FINISH", "OK")]
    failed = gz("--json", "exec", "--", "fails", cwd=repo, env=spanish).json["data"]
    assert _events(repo, failed["id"]) == [
        ("Sesión de exec iniciada", "PENDING", None),
        ("Sesión finalizada con fallas", "FINISH", "FAILED")]
    lines = [line for line in
             gz("session", "logs", failed["id"], cwd=repo, env=spanish).stdout.splitlines()
             if "estado del agente: " not in line]
    assert [re.sub(r" \[\d+ms\]", "", line.split("] ", 3)[3]) for line in lines] == [
        "Sesión de exec iniciada (status: null)",
        "Sesión finalizada con fallas (status: FAILED) error: failed: process_exit, "
        "exit code 3"]


def test_exec_human_output_in_english_and_spanish(gz: Gz, agent: Any, repo: Path):
    agent("edit-and-commit", EDIT_AND_COMMIT)
    english = gz("exec", "--", "edit-and-commit", cwd=repo)
    spanish = gz("exec", "--", "edit-and-commit", cwd=repo, env={"GZ_LANG": "es"})

    for result in (english, spanish):
        assert result.exit_code == 0, result.stderr
        assert result.stdout == "agent finished\n"
    first = english.stderr.splitlines()[0]
    session_id = first.split("in session ")[1][:8]
    assert english.stderr == (
        f"❯❯ Running edit-and-commit in session {session_id} "
        f"(Workspace: Isolated worktree (.harness/worktrees/{session_id}))...\n"
        f"✓ Session '{session_id}' finished successfully.\n"
        f"  Review: gz-ia session diff {session_id}   Merge: gz-ia session merge {session_id}\n"
    )
    session_id = spanish.stderr.split("en la sesión ")[1][:8]
    assert spanish.stderr == (
        f"❯❯ Ejecutando edit-and-commit en la sesión {session_id} "
        f"(Espacio de trabajo: Worktree aislado (.harness/worktrees/{session_id}))...\n"
        f"✓ Sesión '{session_id}' finalizada exitosamente.\n"
        f"  Revisar: gz-ia session diff {session_id}   Integrar: gz-ia session merge {session_id}\n"
    )


def test_agent_exit_code_is_recorded_and_gz_ia_exits_1(gz: Gz, agent: Any, repo: Path):
    agent("fail", "sys.exit(3)\n")
    result = gz("--json", "exec", "--", "fail", cwd=repo)

    assert result.exit_code == 1
    document = result.json
    record = document["data"]
    assert normalized(record) == expected_record(
        repo, status="failed", exit_code=3, command=["fail"])
    assert document["errors"] == [{
        "code": "AGENT_FAILED",
        "message": f"the agent of session '{record['id']}' exited with code 3",
        "retryable": False, "hint": f"details: gz-ia session show {record['id']}",
        "details": {"id": record["id"], "status": "failed", "exit_code": 3, "signal": None},
    }]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_agent_failure_human_error(gz: Gz, agent: Any, repo: Path, lang: str):
    agent("fail", "sys.exit(4)\n")
    result = gz("exec", "--", "fail", cwd=repo, env={"GZ_LANG": lang})

    assert result.exit_code == 1
    session_id = result.stderr.split("session" if lang == "en" else "sesión ")[1].strip()[:8]
    last_two = result.stderr.splitlines()[-2:]
    if lang == "en":
        assert last_two == [f"Error: the agent of session '{session_id}' exited with code 4",
                            f"details: gz-ia session show {session_id}"]
    else:
        assert last_two == [f"Error: el agente de la sesión '{session_id}' terminó con código 4",
                            f"detalle: gz-ia session show {session_id}"]


@pytest.mark.parametrize(
    "case", [("SIGINT", 130, "INTERRUPTED"), ("SIGTERM", 143, "TERMINATED")], ids=str
)
def test_agent_dying_of_a_signal(gz: Gz, agent: Any, repo: Path, case: tuple[str, int, str]):
    signal_name, exit_code, error_code = case
    agent("die", f"os.kill(os.getpid(), signal.{signal_name})\ntime.sleep(5)\n")
    result = gz("--json", "exec", "--", "die", cwd=repo)

    assert result.exit_code == exit_code
    document = result.json
    number = 2 if signal_name == "SIGINT" else 15
    assert normalized(document["data"]) == expected_record(
        repo, status="killed", exit_code=128 + number, end_reason="signal", signal=number,
        command=["die"])
    assert [e["code"] for e in document["errors"]] == [error_code]


def test_missing_program_creates_nothing(gz: Gz, repo: Path):
    result = gz("--json", "exec", "--", "no-such-program-xyz", cwd=repo)

    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "NOT_FOUND"
    assert not (repo / ".harness").exists()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ("Error: program 'tools/check.sh' not found\n"
            "a path is read from the session's worktree root, not from the directory you are "
            "in\n",
            "Error: program 'tools/run.sh' is not executable\n"
            "make it executable: chmod +x tools/run.sh\n")),
    ("es", ("Error: no se encontró el programa 'tools/check.sh'\n"
            "una ruta se busca desde la raíz del worktree de la sesión, no desde el directorio "
            "en el que estás\n",
            "Error: el programa 'tools/run.sh' no es ejecutable\n"
            "hazlo ejecutable: chmod +x tools/run.sh\n")),
])
def test_a_program_given_as_a_path_is_found_from_the_worktree_root(
    gz: Gz, repo: Path, lang: str, expected: tuple[str, str]
):
    (repo / "tools").mkdir()
    (repo / "tools" / "run.sh").write_text("#!/bin/sh\necho ran\n")
    git(repo, "add", "tools")
    git(repo, "commit", "-q", "-m", "tools")
    env = {"GZ_LANG": lang}
    not_found = gz("exec", "--", "tools/check.sh", cwd=repo / "tools", env=env)
    not_executable = gz("exec", "--", "tools/run.sh", cwd=repo / "tools", env=env)
    assert (not_found.exit_code, not_found.stderr) == (1, expected[0])
    assert (not_executable.exit_code, not_executable.stderr) == (1, expected[1])
    (repo / "tools" / "run.sh").chmod(0o755)
    git(repo, "commit", "-q", "-am", "executable")
    ran = gz("exec", "--", "tools/run.sh", cwd=repo / "tools")
    assert ran.exit_code == 0
    assert "ran\n" in ran.stdout


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Error: '{path}' cannot be started: Exec format error"),
    ("es", "Error: '{path}' no se puede iniciar: Exec format error"),
])
def test_a_program_the_system_cannot_start_leaves_a_failed_record(
    gz: Gz, bin_dir: Path, repo: Path, lang: str, message: str
):
    no_shebang = bin_dir / "no-shebang"
    no_shebang.write_text("echo never\n")
    no_shebang.chmod(0o755)

    human = gz("exec", "--", "no-shebang", cwd=repo, env={"GZ_LANG": lang})
    result = gz("--json", "exec", "--", "no-shebang", cwd=repo, env={"GZ_LANG": lang})

    assert (human.exit_code, human.stdout) == (1, "")
    assert human.stderr.splitlines()[-1] == message.format(path=no_shebang)
    assert result.exit_code == 1
    assert [e["code"] for e in result.json["errors"]] == ["IO"]
    record = result.json["data"]
    assert (record["status"], record["end_reason"], record["pid"]) == ("failed", "spawn_failed", 0)
    assert stored_record(repo, record["id"]) == record


def test_exec_without_a_command_is_a_usage_error(gz: Gz, repo: Path):
    result = gz("--json", "exec", cwd=repo)

    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "MISSING_REQUIRED"
    assert result.json["errors"][0]["message"] == "missing command: gz-ia exec -- CMD [ARGS...]"


def test_outside_git_the_session_runs_in_direct_mode(gz: Gz, agent: Any, tmp_path: Path):
    plain = tmp_path / "plain"
    plain.mkdir()
    agent("touch-it", "open('made-here.txt', 'w').close()\n")
    result = gz("--json", "exec", "--", "touch-it", cwd=plain)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert normalized(record) == expected_record(
        plain, is_isolated=False, worktree_dir=None, branch_name=None, base_branch=None,
        base_commit=None, command=["touch-it"])
    assert (plain / "made-here.txt").exists()
    human = gz("exec", "--", "touch-it", cwd=plain, env={"GZ_LANG": "es"})
    assert "(Espacio de trabajo: Directorio directo (sin Git))..." in human.stderr.splitlines()[0]
