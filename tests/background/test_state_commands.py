"""``session wait --until``, ``session submit --when idle``, names (``--name``, ``session
rename``, ``session list --name``): real background sessions, real waits."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import start_background, stored, wait_final, wait_until
from tests.background.test_agent_state import STAND_IN_CLAUDE
from tests.conftest import Result
from tests.run.conftest import GzProcess

Gz = Callable[..., Result]

PROMPTER = """
import sys
while True:
    print("? ", end="", flush=True)
    line = sys.stdin.readline().strip()
    if line == "quit":
        sys.exit(0)
    end = time.time() + 0.5
    while time.time() < end:
        pass
    print("did", line, flush=True)
"""

WAITS_FOR_HOLD = """
import sys
end = time.time() + 1.5
while time.time() < end:
    pass
note("reading", time.time())
note("line", sys.stdin.readline().strip())
"""

CLAUDE_ASKS = STAND_IN_CLAUDE.split("time.sleep(0.3)\nfire(\"UserPromptSubmit\"")[0] + """
fire("UserPromptSubmit", prompt="deploy")
fire("Notification", message="Claude needs your permission to use Bash",
     notification_type="permission_prompt")
while not os.path.exists(os.path.join(os.environ["FAKE_NOTES"], "answer")):
    time.sleep(0.05)
fire("Stop", stop_hook_active=False)
"""


def wait_json(gz: Gz, repo: Path, session_id: str, *args: str) -> Result:
    return gz("--json", "session", "wait", session_id, *args, "--timeout", "15", cwd=repo)


def test_wait_until_idle_state_change_and_exited(gz: Gz, gz_start: GzProcess, agent: Any,
                                                 repo: Path) -> None:
    agent("prompter", PROMPTER)
    session_id = start_background(gz, repo, "prompter")["id"]

    idle = wait_json(gz, repo, session_id, "--until", "idle")
    assert idle.exit_code == 0, idle.stderr
    [seen] = idle.json["data"]["sessions"]
    assert idle.json["data"]["until"] == "idle" and idle.json["data"]["all_reached"] is True
    assert (seen["id"], seen["state"], seen["reached"], seen["status"]) == (
        session_id, "idle", True, "running")

    change = gz_start("--json", "session", "wait", session_id, "--until", "state-change",
                      "--timeout", "15", cwd=repo)
    time.sleep(0.5)
    assert change.poll() is None  # nothing changed yet
    assert gz("session", "submit", session_id, "go", cwd=repo).exit_code == 0
    out, _ = change.communicate(timeout=20)
    assert change.returncode == 0
    assert json.loads(out)["data"]["sessions"][0]["state"] == "working"

    assert gz("session", "submit", session_id, "quit", cwd=repo).exit_code == 0
    ended = wait_json(gz, repo, session_id, "--until", "exited")
    assert ended.exit_code == 0, ended.stderr
    assert ended.json["data"]["sessions"][0]["state"] == "exited"


def test_wait_until_waiting_reports_the_reason(gz: Gz, agent: Any, repo: Path,
                                               notes: Path) -> None:
    agent("claude", CLAUDE_ASKS)
    session_id = gz("--json", "chat", "-b", "-p", "claude", "-i", "deploy", "--no-mcp",
                    cwd=repo).json["data"]["id"]
    waiting = wait_json(gz, repo, session_id, "--until", "waiting")
    (notes / "answer").write_text("1")

    assert waiting.exit_code == 0, waiting.stderr
    [seen] = waiting.json["data"]["sessions"]
    assert (seen["state"], seen["state_reason"]) == (
        "waiting", "Claude needs your permission to use Bash")
    poll = gz("--json", "session", "poll", session_id, cwd=repo).json["data"]
    assert poll["state"] in ("waiting", "idle", "exited")
    wait_final(repo, session_id)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_wait_until_times_out_retryably(gz: Gz, agent: Any, repo: Path, lang: str) -> None:
    agent("prompter", PROMPTER)
    session_id = start_background(gz, repo, "prompter")["id"]
    result = gz("--json", "session", "wait", session_id, "--until", "waiting", "--timeout",
                "0.5", cwd=repo, env={"GZ_LANG": lang})
    gz("session", "submit", session_id, "quit", cwd=repo)

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["retryable"]) == ("TIMEOUT", True)
    assert error["message"] == {
        "en": "timed out after 0.5 s waiting for sessions to be waiting; 1 not yet (left as "
              "they are)",
        "es": "se agotó el tiempo tras 0.5 s esperando a que las sesiones estén waiting; 1 aún "
              "no (se dejan como están)"}[lang]
    assert result.json["data"]["sessions"][0]["reached"] is False
    wait_final(repo, session_id)


def test_a_session_that_ends_first_is_not_reached(gz: Gz, agent: Any, repo: Path) -> None:
    agent("quick", "time.sleep(0.2)\n")
    session_id = start_background(gz, repo, "quick")["id"]
    result = wait_json(gz, repo, session_id, "--until", "waiting")
    assert result.exit_code == 1 and result.json["ok"] is True
    assert result.json["data"]["sessions"][0]["reached"] is False


def test_submit_when_idle_holds_the_text_until_the_agent_reads(
        gz: Gz, agent: Any, repo: Path, notes: Path) -> None:
    agent("busy", WAITS_FOR_HOLD)
    session_id = start_background(gz, repo, "busy")["id"]
    result = gz("--json", "session", "submit", session_id, "hello", "--when", "idle",
                "--timeout", "15", cwd=repo)
    returned = time.time()

    assert result.exit_code == 0, result.stderr
    assert result.json["data"] == {"id": session_id, "bytes": 6}
    assert returned > float((notes / "reading").read_text())  # held while it computed
    wait_until((notes / "line").exists, 10, "the line")
    assert (notes / "line").read_text() == "hello"
    wait_final(repo, session_id)


def test_submit_when_idle_gives_up_without_sending(gz: Gz, agent: Any, repo: Path,
                                                   notes: Path) -> None:
    agent("busy", WAITS_FOR_HOLD)
    session_id = start_background(gz, repo, "busy")["id"]
    result = gz("--json", "session", "submit", session_id, "early", "--when", "idle",
                "--timeout", "0.3", cwd=repo)
    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "TIMEOUT"
    assert result.json["errors"][0]["message"] == (
        f"timed out after 0.3 s waiting for session '{session_id}' to be idle; the text was "
        "not sent")
    gz("session", "submit", session_id, "late", "--when", "idle", "--timeout", "15", cwd=repo)
    wait_until((notes / "line").exists, 10, "the line")
    assert (notes / "line").read_text() == "late"  # "early" never reached it


def test_names_rename_and_filter(gz: Gz, agent: Any, repo: Path) -> None:
    agent("quick", "print('ok')\n")
    first = gz("--json", "exec", "-n", "fix login", "--", "quick", cwd=repo).json["data"]
    second = gz("--json", "exec", "--name", "fix login", "--", "quick", cwd=repo).json["data"]
    other = gz("--json", "exec", "--", "quick", cwd=repo).json["data"]
    assert (first["name"], second["name"], other.get("name")) == ("fix login", "fix login", None)

    renamed = gz("--json", "session", "rename", second["id"], "ship release", cwd=repo)
    assert renamed.exit_code == 0 and renamed.json["data"]["name"] == "ship release"
    assert stored(repo, second["id"])["name"] == "ship release"
    listed = gz("--json", "session", "list", "--name", "ship*", cwd=repo).json["data"]
    assert [s["id"] for s in listed["sessions"]] == [second["id"]]
    both = gz("--json", "session", "list", "--name", "fix*", "--name", "ship*", cwd=repo)
    assert {s["id"] for s in both.json["data"]["sessions"]} == {first["id"], second["id"]}
    human = gz("session", "show", second["id"], cwd=repo, env={"GZ_LANG": "es"}).stdout
    assert human.splitlines()[1] == "Nombre:     ship release"
    rows = gz("session", "list", cwd=repo).stdout.splitlines()[2:]
    assert [row[12:33].rstrip() for row in rows] == ["quick", "ship release", "fix login"]


@pytest.mark.parametrize("name", ["", "   ", "a\nb", "x" * 81])
def test_invalid_names_are_refused_before_anything_starts(gz: Gz, agent: Any, repo: Path,
                                                          name: str) -> None:
    agent("quick", "print('ok')\n")
    result = gz("--json", "exec", "-n", name, "--", "quick", cwd=repo)
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"
    assert not (repo / ".harness" / "sessions").exists() or not list(
        (repo / ".harness" / "sessions").glob("*.json"))
