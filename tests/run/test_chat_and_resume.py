"""gz-ia chat and resume with a fake ``claude`` on PATH, in pipes and on real terminals."""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import GzProcess, claude_state_settings, stored_record
from tests.supervisor.fakes import wait_for_note
from tests.supervisor.terminal_session import TerminalSession

Gz = Callable[..., Result]

FAKE_CLAUDE = """
import json, re
calls = [name for name in os.listdir(os.environ["FAKE_NOTES"]) if name.startswith("call-")]
note("call-%d.json" % len(calls), json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd()}))
if "--session-id" in sys.argv:  # like Claude Code after a first turn: the transcript exists
    folder = os.path.join(os.environ["HOME"], ".claude", "projects",
                          re.sub("[^A-Za-z0-9]", "-", os.getcwd()))
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, sys.argv[sys.argv.index("--session-id") + 1] + ".jsonl"), "w").close()
"""


def calls(notes: Path) -> list[dict[str, Any]]:
    found = sorted(notes.glob("call-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    return [json.loads(path.read_text()) for path in found]


def mcp_config(repo: Path, record: dict[str, Any]) -> str:
    """Where chat/resume put the session's MCP server for the agent (see test_mcp_wiring)."""
    return str(repo / ".harness" / "mcp" / f"{record['id']}.json")


@pytest.fixture
def claude(agent: Any) -> None:
    agent("claude", FAKE_CLAUDE)


@pytest.mark.usefixtures("claude")
def test_chat_runs_the_agent_in_the_worktree_with_its_prompt(gz: Gz, repo: Path, notes: Path):
    result = gz("--json", "chat", "-p", "claude", "-i", "fix the bug", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    conversation = record["conversation_id"]
    assert str(uuid.UUID(conversation)) == conversation
    assert (record["provider"], record["mode"], record["initial_prompt"], record["status"]) == (
        "claude", "chat", "fix the bug", "completed")
    assert calls(notes) == [{
        "argv": ["--permission-mode", "default", "--mcp-config", mcp_config(repo, record),
                 *claude_state_settings(repo, record["id"], prompt=True),
                 "--session-id", conversation, "--", "fix the bug"],
        "cwd": record["worktree_dir"],
    }]
    assert stored_record(repo, record["id"]) == record


@pytest.mark.usefixtures("claude")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_chat_launch_line(gz: Gz, repo: Path, lang: str):
    result = gz("chat", "-p", "claude", "-m", "autonomous", "-i", "go", cwd=repo,
                env={"GZ_LANG": lang})

    assert result.exit_code == 0, result.stderr
    session_id = next((repo / ".harness" / "sessions").glob("*.json")).stem
    expected = {
        "en": f"❯❯ Starting chat with Claude Code (claude) (Permission: autonomous | "
              f"Workspace: Isolated worktree (.harness/worktrees/{session_id}))...",
        "es": f"❯❯ Iniciando chat con Claude Code (claude) (Permiso: autónomo | "
              f"Espacio de trabajo: Worktree aislado (.harness/worktrees/{session_id}))...",
    }
    assert result.stderr.splitlines()[0] == expected[lang]


@pytest.mark.usefixtures("claude")
def test_resume_continues_the_same_conversation_and_keeps_the_prompt(
    gz: Gz, repo: Path, notes: Path
):
    first = gz("--json", "chat", "-p", "claude", "-i", "first task", cwd=repo).json["data"]

    result = gz("resume", first["id"][:6], cwd=repo, env={"GZ_LANG": "es"})

    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        f"↻ Reanudando sesión [{first['id']}] en [{first['worktree_dir']}]...")
    record = stored_record(repo, first["id"])
    assert (record["status"], record["initial_prompt"], record["conversation_id"]) == (
        "completed", "first task", first["conversation_id"])
    assert calls(notes)[1] == {
        "argv": ["--permission-mode", "default", "--mcp-config", mcp_config(repo, first),
                 *claude_state_settings(repo, first["id"], prompt=False),
                 "--resume", first["conversation_id"]],
        "cwd": first["worktree_dir"],
    }


def test_resume_refuses_a_running_session(
    gz: Gz, gz_start: GzProcess, agent: Any, repo: Path, notes: Path
):
    agent("claude", "note('ready', 1)\ntime.sleep(30)\n")
    process = gz_start("chat", "-p", "claude", "-i", "long task", cwd=repo)
    try:
        wait_for_note(notes, "ready")
        session_id = next((repo / ".harness" / "sessions").glob("*.json")).stem
        pid = int(wait_for_note(notes, "agent.pid"))
        result = gz("--json", "resume", session_id, cwd=repo)
    finally:
        process.terminate()
        process.communicate(timeout=30)

    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "CONFLICT"
    assert result.json["errors"][0]["message"] == (
        f"session '{session_id}' is already running (PID {pid})")
    assert process.returncode == 143


@pytest.fixture
def terminal(run_env: dict[str, str], repo: Path) -> Iterator[Callable[..., TerminalSession]]:
    opened: list[TerminalSession] = []

    def open_terminal(*args: str, lang: str = "en") -> TerminalSession:
        session = TerminalSession([sys.executable, "-m", "gzia", *args],
                                  env={**run_env, "GZ_LANG": lang}, cwd=str(repo))
        opened.append(session)
        return session

    yield open_terminal
    for session in opened:
        session.close()


@pytest.mark.usefixtures("claude")
def test_chat_asks_for_the_task_on_a_terminal(terminal: Any, repo: Path, notes: Path):
    term = terminal("chat", "-p", "claude")
    term.read_until(b"[?] Describe the task for the agent: ")
    term.type(b"write the tests\r")

    assert term.finish() == 0
    record = stored_record(repo, next((repo / ".harness" / "sessions").glob("*.json")).stem)
    assert record["initial_prompt"] == "write the tests"
    assert calls(notes)[0]["argv"][-2:] == ["--", "write the tests"]


@pytest.mark.usefixtures("claude")
def test_ctrl_c_at_the_question_exits_130_and_creates_nothing(terminal: Any, repo: Path):
    term = terminal("chat", "-p", "claude", lang="es")
    term.read_until(b"[?] Describa la tarea para el agente: ")
    term.type(b"\x03")

    assert term.finish() == 130
    assert not (repo / ".harness").exists()


def test_ctrl_c_in_a_chat_reaches_the_agent_and_gz_ia_exits_130(
    terminal: Any, agent: Any, repo: Path, notes: Path
):
    agent("claude", "print('AGENT READY', flush=True)\nwhile True:\n    time.sleep(1)\n")
    term = terminal("chat", "-p", "claude", "-i", "wait")
    term.read_until(b"AGENT READY")
    term.type(b"\x03")

    assert term.finish() == 130
    record = stored_record(repo, next((repo / ".harness" / "sessions").glob("*.json")).stem)
    assert (record["status"], record["end_reason"], record["signal"], record["exit_code"]) == (
        "killed", "signal", 2, 130)


def test_exec_on_a_terminal_runs_the_command_on_its_own_pty_and_logs_it(
    terminal: Any, agent: Any, repo: Path
):
    agent("show-tty", "print('tty=%s leader=%s' % (os.isatty(0), os.getsid(0) == os.getpid()))\n")
    term = terminal("exec", "--", "show-tty")

    assert term.finish() == 0
    assert b"tty=True leader=True" in term.output
    session_id = next((repo / ".harness" / "sessions").glob("*.json")).stem
    record = stored_record(repo, session_id)
    log = repo / ".harness" / "logs" / f"{session_id}.log"
    assert record["log_path"] == str(log)
    assert log.read_bytes() == b"tty=True leader=True\r\n"


def test_chat_with_an_agent_missing_from_path_touches_nothing(
    gz: Gz, repo: Path, tmp_path: Path
):
    only_git = tmp_path / "only-git"
    only_git.mkdir()
    (only_git / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    result = gz("chat", "--provider", "claude", "-i", "x", cwd=repo,
                env={"GZ_LANG": "es", "PATH": str(only_git)})

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "Error: el agente 'Claude Code (claude)' (claude) no está disponible en el PATH.\n"
        "Instalación: npm install -g @anthropic-ai/claude-code\n")
    assert not (repo / ".harness").exists()


def test_chat_unknown_flag_is_a_usage_error(gz: Gz, repo: Path):
    result = gz("chat", "--invalid-flag", cwd=repo)

    assert (result.exit_code, result.stderr) == (2, "Error: unknown flag: --invalid-flag\n")
