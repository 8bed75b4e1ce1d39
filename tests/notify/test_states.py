"""A state the agent reports (here through Claude Code's hooks) is notified by the run's
holder once it has held for the debounce: one POST for ``waiting``, then the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.background.conftest import wait_final, wait_until
from tests.conftest import Result
from tests.fakes.http import FakeServer
from tests.notify.conftest import posts

WAITING_CLAUDE = """
import json
argv = sys.argv[1:]
settings = json.loads(argv[argv.index("--settings") + 1])  # Claude Code's --settings <json>

def fire(event, **fields):
    for group in settings["hooks"].get(event, []):
        for hook in group["hooks"]:  # exec form: "command" and "args", no shell
            payload = {"session_id": "4f1c", "transcript_path": "/tmp/t.jsonl",
                       "cwd": os.getcwd(), "hook_event_name": event, **fields}
            subprocess.run([hook["command"], *hook["args"]], input=json.dumps(payload).encode(),
                           timeout=hook["timeout"], check=True)

fire("UserPromptSubmit", prompt="fix the bug")
fire("PermissionRequest", tool_name="Bash", tool_input={"command": "make"})
fire("Notification", message="Claude needs your permission to use Bash",
     notification_type="permission_prompt")
go = os.path.join(os.environ["FAKE_NOTES"], "go")
while not os.path.exists(go):  # a person has not answered yet
    time.sleep(0.05)
"""


def test_a_waiting_agent_is_posted_once_after_the_debounce_then_its_end(
        gz: Callable[..., Result], agent: Any, repo: Path, notes: Path, *, receiver: FakeServer,
        settings_file: Callable[..., Path]) -> None:
    agent("claude", WAITING_CLAUDE)
    config = settings_file(notify_webhook=receiver.url + "/hook", notify_desktop=False,
                           notify_debounce_ms=300)
    result = gz("--json", "chat", "-b", "-p", "claude", "-i", "fix the bug", "--no-mcp",
                cwd=repo, env={"GZ_CONFIG_FILE": str(config)})
    assert result.exit_code == 0, result.stderr
    session_id = result.json["data"]["id"]

    try:
        (document,) = wait_until(lambda: posts(receiver), what="the waiting notification")
    finally:
        (notes / "go").write_text("")  # the agent ends either way
    assert (document["event"], document["session_id"], document["previous"]) == \
        ("waiting", session_id, "working")
    assert document["text"] == (f"gz-ia: session {session_id} is waiting for you: "
                                "permission: Bash")
    wait_final(repo, session_id)
    wait_until(lambda: len(posts(receiver)) == 2, what="the end's notification")
    assert [p["event"] for p in posts(receiver)] == ["waiting", "end"]
