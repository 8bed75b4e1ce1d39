"""pi and opencode choose their conversation ids themselves: the run records the one the
agent wrote, once it has exited, and ``session metrics`` reads it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result
from tests.metrics.conftest import FIXTURES
from tests.run.conftest import stored_record

Gz = Callable[..., Result]

FAKE_PI = """
import json
folder = os.path.join(os.environ["PI_CODING_AGENT_DIR"], "sessions",
                      "--" + os.getcwd().lstrip("/").replace("/", "-") + "--")
os.makedirs(folder, exist_ok=True)
usage = {"input": 7, "output": 3, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.5}}
lines = [{"type": "session", "version": 3, "id": "pi-conv-1", "cwd": os.getcwd()},
         {"type": "message", "message": {"role": "assistant", "model": "m", "usage": usage,
                                         "content": [{"type": "toolCall", "name": "bash"}]}}]
with open(os.path.join(folder, "2026_pi-conv-1.jsonl"), "w") as handle:
    handle.write("".join(json.dumps(line) + "\\n" for line in lines))
"""

FAKE_OPENCODE = """
import sqlite3
database = os.path.join(os.environ["XDG_DATA_HOME"], "opencode", "opencode.db")
with sqlite3.connect(database) as db:
    db.execute("INSERT INTO session (id, project_id, slug, directory, title, version, "
               "time_created, time_updated) VALUES ('ses_run', 'p', 's', ?, 't', '1', ?, ?)",
               (os.getcwd(), int(time.time() * 1000), int(time.time() * 1000)))
"""


def test_pi_conversation_is_recorded_and_read(agent: Any, gz: Gz, repo: Path,
                                              tmp_path: Path) -> None:
    agent("pi", FAKE_PI)
    env = {"PI_CODING_AGENT_DIR": str(tmp_path / "pi-home")}
    run = gz("--json", "chat", "-p", "pi-agent", "-i", "go", cwd=repo, env=env)
    assert run.exit_code == 0, run.stderr
    session_id = run.json["data"]["id"]
    assert run.json["data"]["conversation_id"] == "pi-conv-1"
    assert stored_record(repo, session_id)["conversation_id"] == "pi-conv-1"

    metrics = gz("session", "metrics", session_id, "--json", cwd=repo, env=env)
    agent_data = metrics.json["data"]["agent"]
    assert (agent_data["conversation_ids"], agent_data["requests"], agent_data["cost_usd"],
            agent_data["tool_calls"]) == (["pi-conv-1"], 1, 0.5, {"bash": 1})


def test_opencode_session_is_recorded(agent: Any, gz: Gz, repo: Path, tmp_path: Path) -> None:
    agent("opencode", FAKE_OPENCODE)
    data_home = tmp_path / "data"
    (data_home / "opencode").mkdir(parents=True)
    shutil.copy(FIXTURES / "opencode" / "home" / ".local" / "share" / "opencode" /
                "opencode.db", data_home / "opencode" / "opencode.db")
    run = gz("--json", "chat", "-p", "opencode", "-i", "go", cwd=repo,
             env={"XDG_DATA_HOME": str(data_home)})
    assert run.exit_code == 0, run.stderr
    assert run.json["data"]["conversation_id"] == "ses_run"


def test_an_agent_that_wrote_nothing_leaves_no_conversation(agent: Any, gz: Gz,
                                                            repo: Path) -> None:
    agent("pi", "pass\n")
    run = gz("--json", "chat", "-p", "pi-agent", "-i", "go", cwd=repo)
    assert run.exit_code == 0, run.stderr
    assert run.json["data"]["conversation_id"] is None
    assert run.json["data"]["status"] == "completed"


def test_a_background_run_records_the_conversation_too(agent: Any, gz: Gz, repo: Path,
                                                       tmp_path: Path) -> None:
    from tests.waiting import wait_for

    agent("pi", FAKE_PI)
    env = {"PI_CODING_AGENT_DIR": str(tmp_path / "pi-home")}
    run = gz("--json", "chat", "-b", "-p", "pi-agent", "-i", "go", cwd=repo, env=env)
    assert run.exit_code == 0, run.stderr
    session_id = run.json["data"]["id"]
    wait_for(lambda: stored_record(repo, session_id)["status"] != "running",
             "the holder to write the final record")
    record = stored_record(repo, session_id)
    assert (record["status"], record["conversation_id"]) == ("completed", "pi-conv-1")
