"""A foreground run notifies too when no person is on its terminal (stdin is not a
terminal: a CI job, a script): the gz-ia that runs it sends the agent's states and the
end, as a holder does (tests/notify/test_states.py). On a terminal it sends nothing: the
person there sees it all."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.background.conftest import stored, wait_until
from tests.fakes.http import FakeServer
from tests.notify.conftest import posts
from tests.notify.test_states import WAITING_CLAUDE
from tests.supervisor.terminal_session import TerminalSession

CHAT = ("chat", "-p", "claude", "-i", "fix the bug", "--no-mcp")


def notifying(receiver: FakeServer, settings_file: Callable[..., Path]) -> dict[str, str]:
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_desktop=False,
                           notify_debounce_ms=300)
    return {"GZ_CONFIG_FILE": str(config)}


def test_a_foreground_run_without_a_terminal_posts_its_states_and_its_end(
        gz_start: Callable[..., Any], agent: Any, repo: Path, notes: Path, *,
        receiver: FakeServer, settings_file: Callable[..., Path]) -> None:
    agent("claude", WAITING_CLAUDE)
    running = gz_start("--json", *CHAT, cwd=repo, env=notifying(receiver, settings_file))
    try:
        (document,) = wait_until(lambda: posts(receiver), what="the waiting notification")
    finally:
        (notes / "go").write_text("")  # the agent ends either way
    out, err = running.communicate(timeout=60)
    assert running.returncode == 0, err
    session_id = json.loads(out)["data"]["id"]
    assert (document["event"], document["session_id"]) == ("waiting", session_id)
    assert (document["event"], document["previous"]) == ("waiting", "working")
    assert document["text"] == (f"gz-ia: session {session_id} is waiting for you: "
                                "permission: Bash")
    assert [(p["event"], p["session_id"]) for p in posts(receiver)] == \
        [("waiting", session_id), ("end", session_id)]


def test_a_foreground_run_on_a_terminal_posts_nothing(
        agent: Any, repo: Path, notes: Path, run_env: dict[str, str], *,
        receiver: FakeServer, settings_file: Callable[..., Path]) -> None:
    agent("claude", WAITING_CLAUDE)
    terminal = TerminalSession([sys.executable, "-m", "gzia", *CHAT], cwd=str(repo),
                               env={**run_env, **notifying(receiver, settings_file)})
    try:
        session_id = wait_until(lambda: next(
            (p.stem for p in (repo / ".harness" / "sessions").glob("*.json")), None),
            what="the session")
        wait_until(lambda: stored(repo, session_id).get("state") == "waiting",
                   what="the agent to wait")
        (notes / "go").write_text("")
        assert terminal.finish() == 0
    finally:
        terminal.close()
    assert posts(receiver) == []  # not even the end, which its owner sends before it exits
