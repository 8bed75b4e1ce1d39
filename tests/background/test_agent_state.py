"""The agent's own state: stand-in agents that call the injected hooks as Claude Code and
opencode do (same config, same payloads), and PTY programs that block reading their
terminal (the kernel detector). Every transition is recorded in order, in the record and
as an event, within 1 s of the agent's action."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import start_background, stored, wait_final, wait_until
from tests.conftest import Result

Gz = Callable[..., Result]

STAND_IN_CLAUDE = """
import json
argv = sys.argv[1:]
settings = json.loads(argv[argv.index("--settings") + 1])  # Claude Code's --settings <json>
note("settings.json", argv[argv.index("--settings") + 1])
count = 0

def fire(event, **fields):
    global count
    note("action-%d" % count, time.time())
    count += 1
    for group in settings["hooks"].get(event, []):
        for hook in group["hooks"]:  # exec form: "command" and "args", no shell
            assert hook["type"] == "command"
            payload = {"session_id": "4f1c", "transcript_path": "/tmp/t.jsonl",
                       "cwd": os.getcwd(), "hook_event_name": event, **fields}
            subprocess.run([hook["command"], *hook["args"]], input=json.dumps(payload).encode(),
                           timeout=hook["timeout"], check=True)

time.sleep(0.3)
fire("UserPromptSubmit", prompt="fix the bug")
time.sleep(0.3)
fire("PermissionRequest", tool_name="Bash", tool_input={"command": "make"})
fire("Notification", message="Claude needs your permission to use Bash",
     notification_type="permission_prompt")
time.sleep(0.3)
fire("PostToolUse", tool_name="Bash", tool_input={"command": "make"}, tool_response={},
     tool_use_id="toolu_1")
time.sleep(0.3)
fire("Stop", stop_hook_active=False, last_assistant_message="done")
time.sleep(0.3)
fire("Notification", message="Claude is waiting for your input",
     notification_type="idle_prompt")
time.sleep(0.3)
"""

STAND_IN_OPENCODE = """#!/usr/bin/env node
// opencode's plugin mechanism: each "plugin" spec of the inline config is imported and
// each exported function called; its hooks' "event" gets every bus event, not awaited.
const fs = require("fs");
const path = require("path");
const note = (name, value) => fs.writeFileSync(path.join(process.env.FAKE_NOTES, name),
                                               String(value));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  const config = JSON.parse(process.env.OPENCODE_CONFIG_CONTENT || "{}");
  const hooks = [];
  for (const spec of config.plugin || []) {
    const mod = await import(spec);
    for (const make of Object.values(mod)) {
      if (typeof make === "function") hooks.push(await make({ directory: process.cwd() }));
    }
  }
  let count = 0;
  const fire = (type, properties) => {
    note("action-" + count++, Date.now() / 1000);
    for (const hook of hooks) hook.event?.({ event: { id: "evt_" + count, type, properties } });
  };
  await sleep(300);
  fire("session.status", { sessionID: "ses_1", status: { type: "busy" } });
  await sleep(400);
  fire("permission.asked", { id: "per_1", sessionID: "ses_1", permission: "bash",
                             patterns: ["git push"], metadata: {}, always: [] });
  await sleep(400);
  fire("permission.replied", { sessionID: "ses_1", requestID: "per_1", reply: "once" });
  await sleep(400);
  fire("session.status", { sessionID: "ses_1", status: { type: "idle" } });
  fire("session.idle", { sessionID: "ses_1" });
  await sleep(1200);
})();
"""

READER = """
import sys
print("ready?", flush=True)
note("action-0", time.time())
sys.stdin.readline()
end = time.time() + 0.6
while time.time() < end:
    pass
print("working done", flush=True)
note("action-1", time.time())
sys.stdin.readline()
"""


def ended(repo: Path, session_id: str) -> dict[str, Any]:
    """The final record, once the ``exited`` event (written just after it) is there too."""
    final = wait_final(repo, session_id)
    wait_until(lambda: state_events(repo, session_id)[-1]["state"] == "exited", 10, "exited")
    return final


WRITE_BOUND_S = 5.0


def state_events(repo: Path, session_id: str) -> list[dict[str, Any]]:
    path = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    return [e for e in map(json.loads, path.open()) if e.get("type") == "state"]


def transitions(repo: Path, session_id: str) -> list[tuple[str, str | None, str | None, str]]:
    return [(e["state"], e["previous"], e["reason"], e["source"])
            for e in state_events(repo, session_id)]


def hooked_run(reason: str) -> list[tuple[str, str | None, str | None, str]]:
    """A turn with one permission prompt, reported by the agent's hooks."""
    return [("starting", None, None, "owner"), ("working", "starting", None, "hook"),
            ("waiting", "working", reason, "hook"), ("working", "waiting", None, "hook"),
            ("idle", "working", None, "hook"), ("exited", "idle", None, "owner")]


def seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def assert_within_a_second(notes: Path, events: list[dict[str, Any]], actions: list[int]
                           ) -> None:
    """Each state is recorded as beginning within 1 s of the agent's action (``since``:
    the write's time, or the action's own where the agent says it: opencode), and written
    within a few seconds even on a loaded machine (bench/agent_state.py measures the
    write latency itself)."""
    for event, action in zip(events, actions, strict=True):
        acted = float((notes / f"action-{action}").read_text())
        assert 0 <= seconds(event["since"]) - acted < 1.0, (event, acted)
        assert 0 <= seconds(event["timestamp"]) - acted < WRITE_BOUND_S, (event, acted)


def test_claude_code_hooks_report_each_state_in_order(gz: Gz, agent: Any, repo: Path,
                                                      notes: Path) -> None:
    agent("claude", STAND_IN_CLAUDE)
    result = gz("--json", "chat", "-b", "-p", "claude", "-i", "fix the bug", "--no-mcp",
                cwd=repo)
    assert result.exit_code == 0, result.stderr
    session_id = result.json["data"]["id"]
    final = ended(repo, session_id)

    assert (final["status"], final["state"]) == ("completed", "exited")
    assert transitions(repo, session_id) == hooked_run("permission: Bash")
    assert_within_a_second(notes, state_events(repo, session_id)[1:5], [0, 1, 3, 4])
    assert final["state_since"] == state_events(repo, session_id)[-1]["since"]


@pytest.mark.skipif(shutil.which("node") is None, reason="the opencode stand-in needs node")
def test_opencode_plugin_reports_each_state_in_order(gz: Gz, bin_dir: Path, repo: Path,
                                                     notes: Path) -> None:
    stand_in = bin_dir / "opencode"
    stand_in.write_text(STAND_IN_OPENCODE, encoding="utf-8")
    stand_in.chmod(0o755)
    result = gz("--json", "chat", "-b", "-p", "opencode", "-i", "ship it", cwd=repo)
    assert result.exit_code == 0, result.stderr
    session_id = result.json["data"]["id"]
    final = ended(repo, session_id)

    assert (final["status"], final["state"]) == ("completed", "exited")
    assert transitions(repo, session_id) == hooked_run("permission: bash git push")
    assert_within_a_second(notes, state_events(repo, session_id)[1:5], [0, 1, 2, 3])
    plugin = repo / ".harness" / "hooks" / f"{session_id}.mjs"
    assert plugin.stat().st_mode & 0o777 == 0o600  # outside the worktree, ignored by git
    assert git_status(repo) == git_status(Path(final["worktree_dir"])) == ""


def git_status(path: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored=no"], cwd=path,
                          capture_output=True, text=True, check=True).stdout


def test_the_detector_sees_a_program_blocked_reading_its_terminal(
        gz: Gz, agent: Any, repo: Path, notes: Path) -> None:
    agent("reader", READER)
    session_id = start_background(gz, repo, "reader")["id"]
    wait_until(lambda: stored(repo, session_id).get("state") == "idle", 10, "idle")
    assert gz("session", "submit", session_id, "go", cwd=repo).exit_code == 0
    wait_until(lambda: len(state_events(repo, session_id)) >= 5, 10, "idle again")
    assert gz("session", "submit", session_id, "end", cwd=repo).exit_code == 0
    ended(repo, session_id)

    seen = transitions(repo, session_id)
    assert seen[:5] == [
        ("starting", None, None, "owner"),
        ("working", "starting", None, "detector"),
        ("idle", "working", None, "detector"),
        ("working", "idle", None, "detector"),
        ("idle", "working", None, "detector"),
    ]
    # The program exits as soon as it reads "end": the detector may or may not catch the
    # moment it was busy with it, and either way the run ends from the state it last saw.
    assert seen[5:] in ([("working", "idle", None, "detector"),
                         ("exited", "working", None, "owner")],
                        [("exited", "idle", None, "owner")])
    events = state_events(repo, session_id)
    assert_within_a_second(notes, [events[2], events[4]], [0, 1])


def test_a_late_hook_never_reopens_an_ended_run(gz: Gz, agent: Any, repo: Path,
                                                notes: Path) -> None:
    agent("claude", STAND_IN_CLAUDE)
    session_id = gz("--json", "chat", "-b", "-p", "claude", "-i", "x", "--no-mcp",
                    cwd=repo).json["data"]["id"]
    final = ended(repo, session_id)
    hook = json.loads((notes / "settings.json").read_text())["hooks"]["Stop"][0]["hooks"][0]
    done = subprocess.run([hook["command"], *hook["args"]], check=False, timeout=30,
                          input=json.dumps({"hook_event_name": "UserPromptSubmit"}).encode(),
                          capture_output=True)

    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert stored(repo, session_id) == final
    assert transitions(repo, session_id)[-1][0] == "exited"
