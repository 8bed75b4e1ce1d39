"""chat/resume hand the session's `gz-ia mcp` server to agents that accept MCP config.

Fake `claude` and `opencode` on PATH record the argv and environment they were handed;
the configuration they got then starts a working server (the official SDK client
calls `session_info` through it), run from the agent's own directory.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import Result

Gz = Callable[..., Result]

RECORDER = """
import json
args = sys.argv[1:]
config = args[args.index("--mcp-config") + 1] if "--mcp-config" in args else None
note("{name}.json", json.dumps({{
    "argv": args, "cwd": os.getcwd(), "config_path": config,
    "config": json.load(open(config)) if config else None,
    "inline": os.environ.get("OPENCODE_CONFIG_CONTENT")}}))
"""


@pytest.fixture
def fakes(agent: Any) -> None:
    agent("claude", RECORDER.format(name="claude"))
    agent("opencode", RECORDER.format(name="opencode"))


def seen(notes: Path, name: str) -> dict[str, Any]:
    return json.loads((notes / f"{name}.json").read_text())


async def _session_info(command: list[str], cwd: Path) -> dict[str, Any]:
    import os

    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd,
                                   env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        result = await client.call_tool("session_info", {})
        info: dict[str, Any] = json.loads(result.content[0].text)
        return info


def git_status(directory: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored=no"], cwd=directory,
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.usefixtures("fakes")
def test_claude_gets_a_config_file_outside_the_worktree_that_starts_the_server(
    gz: Gz, repo: Path, notes: Path
) -> None:
    result = gz("--json", "chat", "-p", "claude", "-i", "go", cwd=repo)
    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    got = seen(notes, "claude")
    config_path = Path(got["config_path"])
    assert config_path == repo / ".harness" / "mcp" / f"{record['id']}.json"
    assert oct(config_path.stat().st_mode & 0o777) == "0o600"
    assert got["argv"][got["argv"].index("--mcp-config") - 1] != "--"  # an option, not prompt
    server = got["config"]["mcpServers"]["gz-ia"]
    assert server["args"][-5:] == ["mcp", "--session", record["id"], "-d", str(repo)]
    info = anyio.run(_session_info, [server["command"], *server["args"]],
                     Path(record["worktree_dir"]))
    assert info["id"] == record["id"]
    assert git_status(repo) == "" and git_status(Path(record["worktree_dir"])) == ""


@pytest.mark.usefixtures("fakes")
def test_no_mcp_hands_nothing(gz: Gz, repo: Path, notes: Path) -> None:
    result = gz("--json", "chat", "-p", "claude", "-i", "go", "--no-mcp", cwd=repo)
    assert result.exit_code == 0, result.stderr
    assert seen(notes, "claude")["config"] is None
    assert not (repo / ".harness" / "mcp").exists()


@pytest.mark.usefixtures("fakes")
def test_opencode_gets_the_server_merged_into_the_users_inline_config(
    gz: Gz, repo: Path, notes: Path
) -> None:
    own = {"theme": "dark", "mcp": {"mine": {"type": "local", "command": ["my-mcp"]}}}
    result = gz("--json", "chat", "-p", "opencode", "-i", "go", cwd=repo,
                env={"OPENCODE_CONFIG_CONTENT": json.dumps(own)})
    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    inline = json.loads(seen(notes, "opencode")["inline"])
    assert inline["theme"] == "dark" and inline["mcp"]["mine"] == own["mcp"]["mine"]
    server = inline["mcp"]["gz-ia"]
    assert server["type"] == "local" and server["enabled"] is True
    info = anyio.run(_session_info, server["command"], Path(record["worktree_dir"]))
    assert info["id"] == record["id"]


@pytest.mark.usefixtures("fakes")
def test_resume_hands_the_server_again(gz: Gz, repo: Path, notes: Path) -> None:
    first = gz("--json", "chat", "-p", "claude", "-i", "go", cwd=repo)
    assert first.exit_code == 0, first.stderr
    session_id = first.json["data"]["id"]
    (notes / "claude.json").unlink()
    resumed = gz("--json", "resume", session_id, cwd=repo)
    assert resumed.exit_code == 0, resumed.stderr
    server = seen(notes, "claude")["config"]["mcpServers"]["gz-ia"]
    assert server["args"][-4:-2] == ["--session", session_id]


@pytest.mark.usefixtures("fakes")
def test_delete_removes_the_sessions_mcp_configuration(gz: Gz, repo: Path) -> None:
    result = gz("--json", "chat", "-p", "claude", "-i", "go", cwd=repo)
    session_id = result.json["data"]["id"]
    config_path = repo / ".harness" / "mcp" / f"{session_id}.json"
    assert config_path.is_file()
    deleted = gz("--json", "session", "delete", session_id, "--force", cwd=repo)
    assert deleted.exit_code == 0, deleted.stderr
    assert not config_path.exists()
