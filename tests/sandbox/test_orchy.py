"""From inside its sandbox, an agent's Orchy tools and state hooks still work: gz-ia runs
them outside, for this session only (docs/sandbox.md, "Orchy and state hooks")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result
from tests.sandbox.conftest import report_of

Gz = Callable[..., Result]

FAKE_CLAUDE = """
import anyio
args = sys.argv[1:]
settings = json.loads(args[args.index("--settings") + 1])
hook = settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]
done = subprocess.run([hook["command"], *hook["args"]], capture_output=True,
                      input=json.dumps({"hook_event_name": "UserPromptSubmit"}).encode())
results["hook"] = str(done.returncode)
config = json.load(open(args[args.index("--mcp-config") + 1]))["mcpServers"]["gz-ia"]

async def call(name, arguments):
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    params = StdioServerParameters(command=config["command"], args=config["args"],
                                   env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        result = await client.call_tool(name, arguments)
        return ("error: " if result.is_error else "") + result.content[0].text

results["session_log"] = json.loads(anyio.run(call, "session_log",
                                              {"action": "logged from the sandbox"}))["action"]
attempt("write_events_itself", lambda: write(os.path.join(
    json.loads(anyio.run(call, "session_info", {}))["project"], ".harness", "planted")))
report()
"""


def test_orchy_tools_and_state_hooks_work_from_inside_the_sandbox(
        gz: Gz, probe: Any, repo: Path) -> None:
    probe("claude", FAKE_CLAUDE)

    result = gz("--json", "chat", "-p", "claude", "--sandbox", "-i", "go", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert report_of(repo, record) == {
        "hook": "0", "session_log": "logged from the sandbox",
        "write_events_itself": "Read-only file system"}
    events = [json.loads(line) for line in (
        repo / ".harness" / "sessions" / f"{record['id']}.events.jsonl").read_text().splitlines()]
    assert "logged from the sandbox" in [event["action"] for event in events]
    hooked = [e["state"] for e in events if e.get("type") == "state" and e["source"] == "hook"]
    assert hooked == ["working"]
