"""A parent that works directly in a directory outside git cannot start sub-sessions
(docs/orchy.md, "Sub-sessions"): the refusal says why and what the agent can do, in the
user's language, and stays a refusal (the breaker never opens); the official MCP SDK
client against a real ``gz-ia mcp``."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from gzia.sessions.project import find_project
from tests.orchy.conftest import GZ_IA, mcp_session
from tests.orchy.test_subsessions import refused
from tests.sessions.session_testkit import RUNNING_DIRECT, go_record

PARENT = "0badc0de"
MESSAGES = {
    "en": ("sub-sessions need a git work tree: '{dir}' is not in one, so a sub-session would "
           "have no worktree of its own",
           "do this work in the current session; only a session started in a git work tree "
           "can start sub-sessions"),
    "es": ("las sub-sesiones necesitan un árbol de trabajo de git: '{dir}' no está en uno, así "
           "que una sub-sesión no tendría un worktree propio",
           "haz este trabajo en la sesión actual; solo una sesión iniciada en un árbol de "
           "trabajo de git puede iniciar sub-sesiones"),
}


@pytest.fixture
def plain_dir(tmp_path: Path) -> Path:
    """A directory outside git with a running direct-mode parent session in it."""
    root = tmp_path / "notes"
    root.mkdir()
    (root / "todo.txt").write_text("the user's own file\n")
    project = find_project(root)
    assert not project.is_git
    project.sessions_dir.mkdir(parents=True)
    (project.sessions_dir / f"{PARENT}.json").write_text(go_record(RUNNING_DIRECT, root))
    return root


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("direct_setting", ["false", "true"])
def test_a_parent_outside_git_gets_a_refusal_it_can_act_on(plain_dir: Path, lang: str,
                                                           direct_setting: str) -> None:
    env = {"GZ_LANG": lang, "GZ_DIRECT": direct_setting}
    message, hint = MESSAGES[lang]

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", PARENT, "-d", str(plain_dir),
                               "--max-failures", "1", cwd=plain_dir, env=env) as client:
            for args in ({"command": ["true"]}, {"provider": "shell", "prompt": "x"},
                         {"command": ["true"]}):
                problem = await refused(client, "session_start", args)
                assert (problem["code"], problem["message"], problem["hint"]) == (
                    "SAFETY_BLOCK", message.format(dir=plain_dir), hint)
                assert problem["details"] == {"dir": str(plain_dir), "parent_id": PARENT}
            health = json.loads((await client.call_tool("orchy_health", {})).content[0].text)
            start = next(t for t in health["tools"] if t["name"] == "session_start")
            assert (start["status"], start["consecutive_failures"]) == ("HEALTHY", 0)

    anyio.run(scenario)
    sessions = sorted(p.name for p in find_project(plain_dir).sessions_dir.glob("*.json"))
    assert sessions == [f"{PARENT}.json"]  # nothing was started
    assert sorted(p.name for p in plain_dir.iterdir()) == [".harness", "todo.txt"]
