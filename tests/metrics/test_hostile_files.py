"""Transcripts that are no regular file, or that never end: gz-ia runs as a real process,
under a time limit (a FIFO must not block it) and, for the worst cases, under a memory
limit; any one hostile transcript is a warning and the other sessions still count."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.metrics.conftest import (
    CONVERSATION,
    direct_session,
    good_lines,
    jsonl,
    strict_json,
    transcript_path,
)

CHILD = """
import resource, sys
from gzia.cli import main

def address_space():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024

extra = int(sys.argv[1])
if extra:
    limit = address_space() + extra
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(sys.argv[2:]))
"""
MEMORY_ABOVE_START = 384 * 1024 * 1024
"""What gz-ia may take beyond the interpreter that imported it (a 300 MB line cost
937 MB before lines were bounded)."""


def gz(*args: str, memory: int = 0, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """gz-ia as its own process, under ``memory`` more bytes of address space than it
    started with (0: no limit); ``timeout`` kills it."""
    return subprocess.run([sys.executable, "-c", CHILD, str(memory), *args], text=True,
                          capture_output=True, timeout=timeout, env=os.environ.copy(),
                          check=False)


def document(run: subprocess.CompletedProcess[str]) -> Any:
    assert run.returncode == 0, run.stderr[-3000:]
    return strict_json(run.stdout)


def reasons(doc: dict[str, Any]) -> dict[str, str]:
    return {w["details"]["id"]: w["details"]["reason"] for w in doc["warnings"]}


def good_session(plain: Path, home: Path) -> None:
    direct_session(plain, "600d600d", "claude", "600d600d-0000-4000-8000-000000000000")
    jsonl(transcript_path("claude", home, plain, "600d600d-0000-4000-8000-000000000000"),
          good_lines("claude"))


def test_a_transcript_that_is_no_regular_file_is_refused(tmp_path: Path,
                                                        isolated_env: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    good_session(plain, isolated_env)
    kinds = {"0000000a": "claude", "0000000b": "pi", "0000000c": "agy", "0000000d": "claude",
             "0000000e": "claude", "0000000f": "opencode"}
    for session_id, agent in kinds.items():
        direct_session(plain, session_id, agent, f"{session_id}-c")
    os.mkfifo(transcript_path("claude", isolated_env, plain, "0000000a-c"))
    transcript_path("pi", isolated_env, plain, "0000000b-c").symlink_to("/dev/zero")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    transcript_path("agy", isolated_env, plain, "0000000c-c").symlink_to(fifo)
    transcript_path("claude", isolated_env, plain, "0000000d-c").mkdir()
    database = isolated_env / ".xdg-data" / "opencode" / "opencode.db"
    database.parent.mkdir(parents=True)
    os.mkfifo(database)
    with tempfile.TemporaryDirectory(prefix="gz-", dir="/tmp") as short:  # short: a socket
        bound = Path(short) / "s"
        with socket.socket(socket.AF_UNIX) as listening:
            listening.bind(str(bound))
        transcript_path("claude", isolated_env, plain, "0000000e-c").symlink_to(bound)
        run_refused(plain, isolated_env, list(kinds))


def run_refused(plain: Path, home: Path, refused: list[str]) -> None:
    doc = document(gz("metrics", "--json", "-d", str(plain), timeout=30))
    assert reasons(doc) == dict.fromkeys(refused, "not_regular")
    assert {w["code"] for w in doc["warnings"]} == {"IO"}
    assert (doc["data"]["totals"]["requests"], doc["data"]["totals"]["tokens"]["input"]) == (1, 9)
    one = document(gz("session", "metrics", "0000000a", "--json", "-d", str(plain), timeout=30))
    assert one["warnings"][0]["message"] == (
        f"session 0000000a: {transcript_path('claude', home, plain, '0000000a-c')} is "
        "not a regular file (a FIFO, a device, a socket or a directory); it was not read")
    human = gz("metrics", "-d", str(plain), timeout=30)
    assert human.returncode == 0
    assert human.stderr.count("is not a regular file") == len(refused)


def sparse_line(path: Path, size: int, head: bytes) -> Path:
    """``head``, then zero bytes up to ``size`` with no newline, then a good line: the
    file system holds no data for the zeros, and the test never holds the line."""
    with path.open("wb") as stream:
        stream.write(head)
        stream.truncate(size)
        stream.seek(0, os.SEEK_END)
        stream.write(b'"}\n' + good_lines("claude")[0].encode() + b"\n")
    return path


def test_the_worst_transcripts_in_bounded_memory(tmp_path: Path, isolated_env: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    good_session(plain, isolated_env)
    for session_id, agent in {"1111aaaa": "claude", "2222bbbb": "pi", "3333cccc": "agy"}.items():
        direct_session(plain, session_id, agent, f"{session_id}-c")
    sparse_line(transcript_path("claude", isolated_env, plain, "1111aaaa-c"), 300 * 1024**2,
                b'{"type": "assistant", "x": "')  # one 300 MB line
    transcript_path("pi", isolated_env, plain, "2222bbbb-c").symlink_to("/dev/zero")
    with transcript_path("agy", isolated_env, plain, "3333cccc-c").open("w") as stream:
        stream.write("[" * 10**6 + "]" * 10**6 + "\n" + good_lines("agy")[0] + "\n")

    doc = document(gz("metrics", "--json", "-d", str(plain), memory=MEMORY_ABOVE_START))
    assert reasons(doc) == {"1111aaaa": "line_too_long", "2222bbbb": "not_regular",
                            "3333cccc": "too_complex"}
    requests = {s["id"]: s["totals"]["requests"] for s in doc["data"]["sessions"]}
    assert requests == {"600d600d": 1, "1111aaaa": 1, "2222bbbb": 0, "3333cccc": 1}
    human = gz("metrics", "-d", str(plain), memory=MEMORY_ABOVE_START)
    assert (human.returncode, len(human.stderr.splitlines())) == (0, 3), human.stderr[-3000:]


def test_no_more_than_2_gib_of_a_transcript_is_read(tmp_path: Path, isolated_env: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    direct_session(plain, "4444dddd", "claude")
    path = sparse_line(transcript_path("claude", isolated_env, plain), 2 * 1024**3 + 1, b"")
    doc = document(gz("session", "metrics", "4444dddd", "--json", "-d", str(plain),
                      memory=MEMORY_ABOVE_START))
    assert doc["data"]["agent"]["requests"] == 0  # its one request lies past the limit
    assert doc["warnings"] == [{
        "code": "IO", "retryable": False, "hint": None,
        "message": f"session 4444dddd: {path} is larger than 2 GiB; only its first 2 GiB "
                   "were read",
        "details": {"id": "4444dddd", "reason": "too_large", "path": str(path),
                    "count": 2 * 1024**3, "detail": "2 GiB"}}]


@pytest.mark.parametrize("agent", ["claude", "pi"])
def test_token_sums_past_the_digit_limit_still_give_one_document(
        agent: str, tmp_path: Path, isolated_env: Path) -> None:
    """Counts of 4300 digits each are bad data; before, their sum could not be printed."""
    plain = tmp_path / "plain"
    plain.mkdir()
    direct_session(plain, "abcdef01", agent)
    lines = good_lines(agent)
    big = lines[-1].replace(": 9, ", f": {'9' * 4300}, ", 1)  # the input tokens
    assert big != lines[-1]
    jsonl(transcript_path(agent, isolated_env, plain), [*lines[:-1], big, big, lines[-1]])
    for mode in (["--json"], []):
        run = gz("session", "metrics", "abcdef01", *mode, "-d", str(plain))
        assert run.returncode == 0, run.stderr[-3000:]
    doc = document(gz("metrics", "--json", "-d", str(plain)))
    assert doc["data"]["totals"]["tokens"]["input"] == 9
    assert [w["details"]["reason"] for w in doc["warnings"]] == ["bad_values"]
    assert CONVERSATION in doc["warnings"][0]["details"]["path"]


@pytest.mark.timeout(20)
def test_a_fifo_among_pi_conversations_is_passed_over(tmp_path: Path) -> None:
    """After a run, pi's conversation is found from the headers of its newest files; a
    FIFO among them is no conversation, and must not block the run's end."""
    from gzia.drivers.transcripts import pi_conversation_since, pi_slug

    folder = tmp_path / "sessions" / pi_slug("/w")
    jsonl(folder / "2026-12-01T00-00-00-000Z_ours.jsonl",
          [{"type": "session", "id": "ours", "cwd": "/w"}])
    os.mkfifo(folder / "2026-12-01T00-00-01-000Z_fifo.jsonl")  # the newest
    env = {"PI_CODING_AGENT_DIR": str(tmp_path)}
    assert pi_conversation_since(env, Path("/w"), 0) == "ours"


@pytest.mark.timeout(20)
def test_agy_sub_agents_naming_each_other_are_read_once(tmp_path: Path) -> None:
    """Each conversation is read once, however often (and however deep) it is named:
    ten calls naming their own conversation, eight deep, were 10^8 reads."""
    from gzia.metrics import agy

    calls = []
    for _ in range(10):
        calls += [{"type": "PLANNER_RESPONSE", "source": "MODEL", "content": "go",
                   "toolCalls": [{"name": "invoke_subagent", "args": {}}]},
                  {"type": "TOOL_RESULT", "source": "SYSTEM",
                   "content": '{"conversationId": "other"}'}]
    for name in ("loop", "other"):
        jsonl(tmp_path / name / "transcript.jsonl",
              [step if name == "loop" else {**step, "content": step["content"].replace(
                  "other", "loop")} for step in calls])
    metrics, notices = agy.read_conversations(tmp_path, ["loop"])
    assert notices == []
    assert [sub.id for sub in metrics.subagents] == ["other"]
    assert metrics.subagents[0].metrics.subagents == []
    assert metrics.with_subagents().total().requests == 20
