"""Every run keeps its output log: a foreground ``exec`` without a terminal (a CI job) too,
within the ``session_log_max_bytes`` cap; its output still reaches gz-ia's stdout and
stderr as the agent wrote it (pipes, no PTY: no ``\\r\\n``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result

Gz = Callable[..., Result]

BOTH_STREAMS = """
sys.stdout.write("out 1\\n"); sys.stdout.flush()
sys.stderr.write("err 1\\n"); sys.stderr.flush()
sys.stdout.write("out 2\\n"); sys.stdout.flush()
"""


def test_exec_without_a_terminal_keeps_its_output_log(gz: Gz, agent: Any, repo: Path) -> None:
    agent("both-streams", BOTH_STREAMS)
    result = gz("exec", "--", "both-streams", cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("out 1\nout 2\n")  # the agent's stdout, byte for byte
    assert "err 1\n" in result.stderr
    session = result.stderr.split("session ", 1)[1][:8]
    log = repo / ".harness" / "logs" / f"{session}.log"
    assert _lines(log.read_bytes()) == [b"err 1", b"out 1", b"out 2"]
    shown = gz("--json", "session", "show", session, cwd=repo).json["data"]
    assert shown["log_path"] == str(log)
    output = gz("session", "output", session, cwd=repo)
    assert (output.exit_code, output.stdout.encode()) == (0, log.read_bytes())


def _lines(data: bytes) -> list[bytes]:
    """The log's lines, each stream's in its order (two pipes read as they become ready:
    lines of stdout and stderr written at nearly the same moment may come either way)."""
    lines = data.splitlines()
    assert [line for line in lines if line.startswith(b"out")] == [b"out 1", b"out 2"]
    return sorted(lines)


def test_json_mode_sends_the_agent_stdout_to_stderr_and_still_logs_it(
        gz: Gz, agent: Any, repo: Path) -> None:
    agent("both-streams", BOTH_STREAMS)
    result = gz("--json", "exec", "--", "both-streams", cwd=repo)

    record = result.json["data"]
    assert "out 1\n" in result.stderr and "out 2\n" in result.stderr
    assert _lines(Path(record["log_path"]).read_bytes()) == [b"err 1", b"out 1", b"out 2"]


def test_the_log_of_a_foreground_run_is_capped_like_every_log(gz: Gz, repo: Path) -> None:
    line = "a line of output, the same each time\n"
    script = f"i=0; while [ $i -lt 300 ]; do printf '{line.strip()}\\n'; i=$((i+1)); done"
    result = gz("--json", "exec", "--", "sh", "-c", script, cwd=repo,
                env={"GZ_SESSION_LOG_MAX_BYTES": "4096"})

    log = Path(result.json["data"]["log_path"])
    rotated = log.with_name(log.name + ".1")
    assert log.stat().st_size <= 4096 and rotated.stat().st_size == 4096
    assert (line * 300).encode().endswith(rotated.read_bytes() + log.read_bytes())


def test_no_output_log_message_in_both_languages(gz: Gz, repo: Path) -> None:
    """A record without a log (an agent handed the terminal itself, or an older gz-ia)."""
    import json

    result = gz("--json", "exec", "--", "true", cwd=repo)
    session = result.json["data"]["id"]
    path = repo / ".harness" / "sessions" / f"{session}.json"
    stored = json.loads(path.read_text())
    path.write_text(json.dumps({**stored, "log_path": None}))
    english = gz("session", "output", session, cwd=repo)
    spanish = gz("session", "output", session, cwd=repo, env={"GZ_LANG": "es"})
    assert (english.exit_code, english.stderr.splitlines()[0]) == (
        1, f"Error: session '{session}' has no output log (its agent wrote straight to the "
           "terminal)")
    assert spanish.stderr.splitlines()[0] == (
        f"Error: la sesión '{session}' no tiene registro de salida (su agente escribía "
        "directamente en el terminal)")
