"""NO_OUTPUT_YET for output/poll of a silent session, KILL_ASYNC for a kill still settling."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.cli import output
from gzia.sessions.record import SessionRecord
from tests.background.conftest import start_background, wait_final
from tests.conftest import Result
from tests.supervisor.fakes import wait_for_note

SILENT_UNTIL_GO = """
note("ready", 1)
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "go")):
    time.sleep(0.02)
print("said something")
"""


@pytest.mark.parametrize(("env", "message"), [
    ({}, "session '{id}' has written no output yet"),
    ({"GZ_LANG": "es"}, "la sesión '{id}' aún no ha escrito ninguna salida"),
])
def test_output_and_poll_of_a_silent_session_warn_no_output_yet(  # noqa: PLR0917 - fixtures
        gz: Callable[..., Result], agent: Any, repo: Path, notes: Path, env: dict[str, str],
        message: str) -> None:
    agent("silent", SILENT_UNTIL_GO)
    session_id = start_background(gz, repo, "silent")["id"]
    wait_for_note(notes, "ready")
    warning = {"code": "NO_OUTPUT_YET", "message": message.format(id=session_id),
               "retryable": False, "hint": None, "details": {"id": session_id}}
    empty = gz("--json", "session", "output", session_id, cwd=repo, env=env)
    assert empty.exit_code == 0
    assert empty.json == {"ok": True, "errors": [], "warnings": [warning],
                          "data": {"id": session_id, "bytes": 0, "text": ""}}
    polled = gz("--json", "session", "poll", session_id, cwd=repo, env=env)
    assert (polled.exit_code, polled.json["warnings"]) == (0, [warning])
    assert polled.json["data"]["output_bytes"] == 0
    human = gz("session", "output", session_id, cwd=repo, env=env)
    prefix = "Aviso" if env else "Warning"
    assert human == Result(0, "", f"{prefix}: {message.format(id=session_id)}\n")

    (notes / "go").write_text("go")
    wait_final(repo, session_id)
    said = gz("--json", "session", "output", session_id, cwd=repo)
    assert said.json["warnings"] == [] and "said something" in said.json["data"]["text"]


@pytest.mark.parametrize(("status", "warned"), [("running", True), ("killed", False)])
def test_a_kill_whose_record_still_reads_running_warns_kill_async(status: str,
                                                                  warned: bool) -> None:
    from gzia.cli.session.control import warn_if_still_stopping

    out = output.Output()
    out.set_json(True)
    with output.reporting(out):
        warn_if_still_stopping(SessionRecord(id="abcdef01", status=status))
        expected = [{"code": "KILL_ASYNC", "retryable": False, "hint": None,
                     "details": {"id": "abcdef01"},
                     "message": "session 'abcdef01' was signalled; its owner has not yet "
                                "recorded how it ended (the record still reads running): "
                                "check with gz-ia session wait abcdef01"}] if warned else []
    assert [w.to_json() for w in out.warnings] == expected
