"""``workspace_commit`` through the official MCP SDK client, started the way agents start it.

The SDK's stdio client, unless told otherwise, gives the server only HOME, PATH, SHELL,
TERM, USER and LOGNAME: none of the session's git settings. What stays out of the commit
must still stay out, a failure must leave the index as it was, and concurrent calls must
each get a true answer.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from gzia.profiles.bundle import Bundle
from gzia.sessions.project import find_project
from gzia.sessions.projection import project_bundle
from tests.orchy.conftest import Served
from tests.sessions.session_testkit import run_git
from tests.shared_fixtures import trials


@asynccontextmanager
async def default_env_client(served: Served) -> AsyncIterator[Any]:
    """``gz-ia mcp --session <id>`` under ``stdio_client`` with the SDK's own default
    environment (``env`` not given)."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "gzia", "mcp", "--session", served.isolated],
        cwd=served.worktree)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def payload(result: Any) -> Any:
    return json.loads(result.content[0].text)


async def commit(client: Any, message: str) -> Any:
    return payload(await client.call_tool("workspace_commit", {"message": message}))


def project_profile(served: Served, tmp_path: Path) -> list[str]:
    """A profile projected into the session's worktree, as a running session has it."""
    skill = tmp_path / "skills" / "lint"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\ndescription: lints\n---\nSteps.\n")
    bundle = Bundle(names=("review",), instructions="Review twice.", skills={"lint": skill})
    manifest = project_bundle(find_project(served.root), served.isolated, served.worktree,
                              "shell", bundle)
    return sorted(manifest["created_files"])


def test_projected_files_stay_out_whatever_the_servers_environment(
    served: Served, tmp_path: Path
) -> None:
    projected = project_profile(served, tmp_path)
    assert projected == [".agents/skills/lint/SKILL.md", "AGENTS.md"]
    (served.worktree / "work.txt").write_text("agent work\n")
    run_git(served.worktree, "add", "-f", "AGENTS.md")  # even one forced into the index

    async def scenario() -> None:
        async with default_env_client(served) as client:
            done = await commit(client, "agent: work")
            assert (done["committed"], done["files"]) == (True, ["work.txt"])
            assert await commit(client, "again") == {**done, "committed": False,
                                                     "commit": None, "files": []}

    anyio.run(scenario)
    branch = f"harness/{served.isolated}"
    assert run_git(served.root, "show", "--name-only", "--format=", branch) == "work.txt\n"
    assert run_git(served.worktree, "diff", "--cached", "--name-only") == ""
    merged = run_git(served.root, "log", "--all", "--name-only", "--format=")
    assert not any(path in merged for path in projected)


def test_gz_ias_own_directories_in_the_worktree_do_not_fail_the_commit(served: Served) -> None:
    for own in (".harness", ".harness-session"):
        (served.worktree / own).mkdir()
        (served.worktree / own / "mcp.json").write_text("{}\n")
    (served.worktree / "work.txt").write_text("agent work\n")

    async def scenario() -> None:
        async with default_env_client(served) as client:
            done = await commit(client, "agent: work")
            assert (done["committed"], done["files"]) == (True, ["work.txt"])

    anyio.run(scenario)
    assert run_git(served.worktree, "status", "--porcelain") == ""
    assert run_git(served.worktree, "diff", "--cached", "--name-only") == ""


def test_a_refused_commit_leaves_the_index_as_it_was(served: Served) -> None:
    hook = served.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'refused by the project' >&2\nexit 1\n")
    hook.chmod(0o755)
    (served.worktree / "staged.txt").write_text("the agent staged this\n")
    (served.worktree / "loose.txt").write_text("and left this\n")
    run_git(served.worktree, "add", "staged.txt")
    index = Path(run_git(served.worktree, "rev-parse", "--git-path", "index").strip())
    index = index if index.is_absolute() else served.worktree / index
    before = index.read_bytes()
    head = run_git(served.worktree, "rev-parse", "HEAD")

    async def scenario() -> None:
        async with default_env_client(served) as client:
            refused = await client.call_tool("workspace_commit", {"message": "m"})
            assert refused.is_error
            error = payload(refused)
            assert error["code"] == "IO"
            assert "refused by the project" in error["message"]

    anyio.run(scenario)
    assert index.read_bytes() == before
    assert run_git(served.worktree, "rev-parse", "HEAD") == head
    assert run_git(served.worktree, "status", "--porcelain") == "A  staged.txt\n?? loose.txt\n"


@pytest.mark.parametrize("servers", [1, 2])
def test_concurrent_commits_each_answer_truly(served: Served, servers: int) -> None:
    """8 calls at once, spread over ``servers`` servers (each a process of its own)."""
    calls, answers = 8, []

    async def fire(clients: list[Any], round_: int) -> list[Any]:
        for index in range(calls):
            (served.worktree / f"r{round_}-{index}.txt").write_text(f"{index}\n")
        got: list[Any] = []

        async def one(index: int) -> None:
            result = await clients[index % len(clients)].call_tool(
                "workspace_commit", {"message": f"c{index}"})
            assert not result.is_error, payload(result)
            got.append(payload(result))

        async with anyio.create_task_group() as group:
            for index in range(calls):
                group.start_soon(one, index)
        return got

    async def scenario() -> None:
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(default_env_client(served))
                       for _ in range(servers)]
            for round_ in range(trials(3, 20)):
                answers.append(await fire(clients, round_))

    anyio.run(scenario)
    committed = [a for round_answers in answers for a in round_answers if a["committed"]]
    for round_answers in answers:
        assert len(round_answers) == calls
        assert all(a["committed"] or (a["commit"], a["files"]) == (None, [])
                   for a in round_answers)
        assert any(a["committed"] for a in round_answers)
    files = sorted(f for a in committed for f in a["files"])
    assert files == sorted(f"r{r}-{i}.txt" for r in range(len(answers)) for i in range(calls))
    log = run_git(served.worktree, "log", "--format=%H", f"-{len(committed)}").split()
    assert sorted(log) == sorted(a["commit"] for a in committed)  # one commit per "true"
    assert run_git(served.worktree, "status", "--porcelain") == ""
