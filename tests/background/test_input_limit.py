"""One send-keys, paste or submit carries at most MAX_INPUT_BYTES: more is INVALID_INPUT
naming the limit, checked before the holder is asked (never "Broken pipe"), in bounded
memory and time; the run goes on."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.contract import InvalidInputError
from gzia.sessions.background import MAX_INPUT_BYTES, send_input
from gzia.sessions.record import SessionRecord
from gzia.supervisor.keys import PASTE_END, PASTE_START
from tests.background.conftest import start_background, wait_final, wait_until
from tests.bounded_child import run_bounded
from tests.conftest import Result
from tests.shared_fixtures import lang

__all__ = ["lang"]  # a fixture

MARKERS = len(PASTE_START) + len(PASTE_END)
MESSAGE = {
    "en": ("input for session '{id}' is larger than {limit} bytes, the most one send-keys, "
           "paste or submit takes"),
    "es": ("la entrada para la sesión '{id}' ocupa más de {limit} bytes, lo máximo que "
           "admite un send-keys, paste o submit"),
}
HINT = {"en": "send it in parts, or write it to a file in the session's worktree and name "
              "the file",
        "es": "envíala en partes, o escríbela en un archivo del worktree de la sesión y "
              "nombra el archivo"}


def _raw_reader(received: Path) -> list[str]:
    """An agent that takes its terminal's bytes as they come (raw mode) into a file."""
    return ["sh", "-c", f"stty raw -echo; exec cat > '{received}'"]


def _paste(repo: Path, session: str, size: int, *extra: str) -> Result:
    done = run_bounded([sys.executable, "-m", "gzia", *extra, "session", "paste", session, "-"],
                       cwd=repo, timeout=60, stdin=b"x" * size)
    return Result(done.returncode, done.stdout, done.stderr)


def test_input_past_the_limit_is_refused_and_the_run_goes_on(
        gz: Callable[..., Result], repo: Path, tmp_path: Path, lang: str) -> None:
    received = tmp_path / "received"
    session = str(start_background(gz, repo, *_raw_reader(received))["id"])
    message = MESSAGE[lang].format(id=session, limit=MAX_INPUT_BYTES)

    for size in (10 * 1000 * 1000, MAX_INPUT_BYTES - MARKERS + 1):
        assert _paste(repo, session, size) == Result(
            2, "", f"Error: {message}\n{HINT[lang]}\n")
    document = json.loads(_paste(repo, session, 10 * 1000 * 1000, "--json").stdout)
    assert document == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "INVALID_INPUT", "message": message, "retryable": False, "hint": HINT[lang],
        "details": {"id": session, "limit": MAX_INPUT_BYTES}}]}
    pieces = [f"{n:07d}" + "y" * 99_993 for n in range(11)]  # 1.1 MB of arguments
    assert gz("session", "send-keys", session, "-l", *pieces, cwd=repo,
              env={"GZ_LANG": lang}) == Result(
        2, "", f"Error: {message}\n{HINT[lang]}\n")

    assert _paste(repo, session, MAX_INPUT_BYTES - MARKERS, "--json").stdout == json.dumps({
        "ok": True, "data": {"id": session, "bytes": MAX_INPUT_BYTES}, "errors": [],
        "warnings": []}) + "\n"
    wait_until(lambda: received.stat().st_size == MAX_INPUT_BYTES, timeout=30,
               what="the whole paste to reach the agent")
    assert received.read_bytes() == PASTE_START + b"x" * (MAX_INPUT_BYTES - MARKERS) + PASTE_END
    assert gz("session", "kill", session, cwd=repo).exit_code == 0
    assert wait_final(repo, session)["status"] == "killed"


def test_the_limit_holds_for_every_caller_before_any_holder_is_asked() -> None:
    record = SessionRecord(id="0000abcd", status="running")  # no holder: never reached
    with pytest.raises(InvalidInputError) as refused:
        send_input(record, b"k" * (MAX_INPUT_BYTES + 1))
    assert refused.value.details == {"id": "0000abcd", "limit": MAX_INPUT_BYTES}
