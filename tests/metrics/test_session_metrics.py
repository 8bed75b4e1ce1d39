"""``session metrics`` and ``metrics`` on real projects: changes, missing transcripts,
sessions in direct mode, agents without a transcript, and usage errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.metrics.conftest import TEXT, claude_reply, jsonl, tool_use
from tests.sessions.session_testkit import commit_file, make_repo, make_session

Cli = Callable[..., Result]
CONVERSATION = "0b6f3c1e-8a55-4c1f-9d1e-2f1a3b4c5d6e"


def claude_session(root: Path, session_id: str, **fields: object) -> SessionRecord:
    project = find_project(root)
    make_session(project, session_id)

    def as_claude(record: SessionRecord) -> None:
        record.provider = "claude"
        for key, value in fields.items():
            setattr(record, key, value)

    return SessionStore(project).update(session_id, as_claude)


def transcript_for(home: Path, cwd: str, conversation: str) -> Path:
    import re

    folder = home / ".claude" / "projects" / re.sub("[^A-Za-z0-9]", "-", cwd)
    return jsonl(folder / f"{conversation}.jsonl", [
        {"type": "user", "sessionId": conversation, "message": {"role": "user"}},
        claude_reply("m1", tool_use("t1", "Edit"), {"input": 9, "output": 4}),
        claude_reply("m1", TEXT, {"input": 9, "output": 4}),
    ])


def test_changes_come_from_the_session_diff(tmp_path: Path, isolated_env: Path,
                                            cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    record = claude_session(root, "abcdef01", conversation_id=CONVERSATION)
    worktree = Path(record.worktree_dir or "")
    commit_file(worktree, "a.txt", "one\ntwo\nthree\n")
    commit_file(worktree, "README.md", "hello again\n")  # one line replaced
    (worktree / "new.txt").write_text("untracked\n")  # not committed yet: still a change
    transcript_for(isolated_env, str(worktree), CONVERSATION)

    result = cli("session", "metrics", "abcdef", "--json", "-d", str(root))
    assert result.exit_code == 0, result.stdout
    data = result.json["data"]
    assert data["changes"] == {"source": "git diff", "files": 3, "insertions": 5,
                               "deletions": 1}
    assert (data["agent"]["requests"], data["agent"]["tool_calls"]) == (1, {"Edit": 1})
    assert result.json["warnings"] == []
    human = cli("session", "metrics", "abcdef01", "-d", str(root))
    assert "Changes:         3 files, +5 -1\n" in human.stdout


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_missing_transcript_is_a_warning_not_a_failure(
        lang: str, tmp_path: Path, isolated_env: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    claude_session(root, "abcdef01", conversation_id=CONVERSATION)
    result = cli("session", "metrics", "abcdef01", "--json", "-d", str(root),
                 env={"GZ_LANG": lang})
    assert result.exit_code == 0
    data = result.json["data"]
    assert (data["agent"], data["totals"]) == (None, None)
    projects = isolated_env / ".claude" / "projects"
    message = {
        "en": f"session abcdef01: no transcript found at {projects}; usage figures are missing",
        "es": f"sesión abcdef01: no se encontró transcripción en {projects}; faltan las "
              "cifras de uso",
    }
    assert result.json["warnings"] == [{
        "code": "IO", "message": message[lang], "retryable": False, "hint": None,
        "details": {"id": "abcdef01", "reason": "missing", "path": str(projects), "count": 0,
                    "detail": CONVERSATION}}]


def test_direct_mode_without_a_conversation_id_is_never_guessed(
        tmp_path: Path, isolated_env: Path, cli: Cli) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    claude_session(plain, "0badc0de")
    transcript_for(isolated_env, str(plain), CONVERSATION)  # someone's, in the same dir
    result = cli("session", "metrics", "0badc0de", "--json", "-d", str(plain))
    assert result.exit_code == 0
    assert result.json["data"]["agent"] is None
    assert result.json["data"]["changes"] is None
    [warning] = result.json["warnings"]
    assert warning["details"]["reason"] == "no_conversation"


def test_direct_mode_reads_the_recorded_conversation(tmp_path: Path, isolated_env: Path,
                                                     cli: Cli) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    claude_session(plain, "0badc0de", conversation_id=CONVERSATION)
    transcript_for(isolated_env, str(plain), CONVERSATION)
    transcript_for(isolated_env, str(plain), "11111111-2222-4333-8444-555555555555")
    result = cli("session", "metrics", "0badc0de", "--json", "-d", str(plain))
    agent = result.json["data"]["agent"]
    assert (agent["conversation_ids"], agent["requests"]) == ([CONVERSATION], 1)


def test_a_conversation_id_that_is_not_a_name_is_refused(tmp_path: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    claude_session(root, "abcdef01", conversation_id="../../etc/passwd")
    result = cli("session", "metrics", "abcdef01", "--json", "-d", str(root))
    assert result.exit_code == 0
    assert result.json["data"]["agent"] is None
    assert [w["details"]["reason"] for w in result.json["warnings"]] == ["no_conversation"]


def test_a_shell_session_has_duration_exit_and_changes_only(tmp_path: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    make_session(find_project(root), "5e55a0b1", exit_code=3, status="failed")
    result = cli("session", "metrics", "5e55a0b1", "--json", "-d", str(root))
    data = result.json["data"]
    assert (data["provider"], data["duration_ms"], data["exit_code"], data["agent"]) == (
        "shell", 65000, 3, None)
    assert data["changes"] == {"source": "git diff", "files": 0, "insertions": 0,
                               "deletions": 0}
    assert result.json["warnings"] == []
    human = cli("session", "metrics", "5e55a0b1", "-d", str(root))
    assert "Source:          - (no transcript for this agent)\n" in human.stdout


def test_unknown_session_is_not_found(tmp_path: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    result = cli("session", "metrics", "deadbeef", "--json", "-d", str(root))
    assert (result.exit_code, result.json["errors"][0]["code"]) == (1, "NOT_FOUND")


BAD = {
    ("--since", "yesterday"): (
        "invalid --since 'yesterday': expected a date (YYYY-MM-DD) or an RFC 3339 time",
        "--since inválido 'yesterday': se espera una fecha (AAAA-MM-DD) o una hora RFC 3339"),
    ("--status", "done"): (
        "invalid --status 'done': expected one of running, completed, failed, killed, lost, paused",
        "--status inválido 'done': se espera uno de running, completed, failed, killed, lost, "
        "paused"),
    ("--by", "week"): (
        "invalid --by 'week': expected one of provider, day, model",
        "--by inválido 'week': se espera uno de provider, day, model"),
}


@pytest.mark.parametrize("flag", list(BAD), ids=lambda f: f[0])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_bad_filters_are_usage_errors(flag: tuple[str, str], lang: str, tmp_path: Path,
                                      cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    message = BAD[flag][lang == "es"]
    as_json = cli("metrics", *flag, "--json", "-d", str(root), env={"GZ_LANG": lang})
    assert as_json.exit_code == 2
    assert [(e["code"], e["message"]) for e in as_json.json["errors"]] == [
        ("INVALID_INPUT", message)]
    human = cli("metrics", *flag, "-d", str(root), env={"GZ_LANG": lang})
    assert (human.exit_code, human.stdout) == (2, "")
    assert human.stderr.splitlines()[0] == f"Error: {message}"


@pytest.mark.parametrize(("lang", "text"), [("en", "✧ No sessions match.\n"),
                                            ("es", "✧ Ninguna sesión coincide.\n")])
def test_no_sessions(lang: str, text: str, tmp_path: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    result = cli("metrics", "-d", str(root), env={"GZ_LANG": lang})
    assert (result.exit_code, result.stdout, result.stderr) == (0, text, "")
    as_json = cli("metrics", "--json", "-d", str(root))
    assert as_json.json["data"] == {
        "sessions": [], "by": None, "groups": None,
        "totals": {"sessions": 0, "duration_ms": 0, "requests": 0,
                   "tokens": {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0,
                              "reasoning": None},
                   "cost_usd": None, "tool_calls": {}, "estimated": False}}


SUB_AGENT_TEXT = {
    "en": ("""\
❯ Metrics of session abcdef01 (claude)
Status:          completed
Duration:        1m05s
Exit code:       0
Changes:         1 file, +1 -0
Source:          claude transcript
Models:          claude-opus-4-8
Requests:        1
Tokens:          input 9 · output 4 · cache read 0 · cache write 0 · reasoning -
Cost:            -
Tool calls:      Edit 1
Sub-agents:      1
With sub-agents: 2 · input 12 · output 6 · cache read 0 · cache write 0 · reasoning -
  a7 [-]: requests 1 · input 3 · output 2 · tool calls 1
""", "Warning: session abcdef01: 1 line of {path} is not JSON and was skipped\n"),
    "es": ("""\
❯ Métricas de la sesión abcdef01 (claude)
Estado:         completada
Duración:       1m05s
Código:         0
Cambios:        1 archivo, +1 -0
Fuente:         claude transcript
Modelos:        claude-opus-4-8
Peticiones:     1
Tokens:         entrada 9 · salida 4 · caché leída 0 · caché escrita 0 · razonamiento -
Coste:          -
Herramientas:   Edit 1
Subagentes:     1
Con subagentes: 2 · entrada 12 · salida 6 · caché leída 0 · caché escrita 0 · razonamiento -
  a7 [-]: peticiones 1 · entrada 3 · salida 2 · herramientas 1
""", "Aviso: sesión abcdef01: 1 línea de {path} no es JSON y se omitió\n"),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_sub_agents_and_a_damaged_line_for_people(lang: str, tmp_path: Path,
                                                  isolated_env: Path, cli: Cli) -> None:
    root = make_repo(tmp_path / "repo")
    record = claude_session(root, "abcdef01", conversation_id=CONVERSATION)
    (Path(record.worktree_dir or "") / "notes.txt").write_text("one line\n")
    transcript = transcript_for(isolated_env, record.workspace_path, CONVERSATION)
    with transcript.open("a") as stream:
        stream.write('{"type": "assistant", "message": \n')
    jsonl(transcript.with_suffix("") / "subagents" / "agent-a7.jsonl", [
        claude_reply("s1", tool_use("t9", "Grep"), {"input": 3, "output": 2})])
    result = cli("session", "metrics", "abcdef01", "-d", str(root), env={"GZ_LANG": lang})
    stdout, stderr = SUB_AGENT_TEXT[lang]
    assert (result.exit_code, result.stdout) == (0, stdout)
    assert result.stderr == stderr.format(path=transcript)
