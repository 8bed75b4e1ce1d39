"""Transcripts for the metrics tests: the real agents' (fixtures/, see its README) and
ones written here for what those do not show."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, dict[str, Any]] = json.loads((FIXTURES / "expected.json").read_text())
AGENTS = ("claude", "pi", "opencode")
CLAUDE_SLUG = "-home-ops-demo-repo--harness-worktrees-9221f465"
CLAUDE_CONVERSATION = "4af031bb-50af-4860-b68f-d1650bbc603c"


@pytest.fixture
def fixture_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A writable copy of one agent's fixture folder (``home/`` and ``repo/``)."""

    def copy(agent: str) -> Path:
        target = tmp_path / "fixtures" / agent
        shutil.copytree(FIXTURES / agent, target)
        return target

    return copy


def agent_env(home: Path) -> dict[str, str]:
    """Where every agent looks for its files: a copied ``home/``."""
    return {"HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share")}


def jsonl(path: Path, entries: list[Any], tail: str = "") -> Path:
    """Write ``entries`` one a line (strings as they are), then ``tail`` unterminated."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [e if isinstance(e, str) else json.dumps(e) for e in entries]
    path.write_text("".join(line + "\n" for line in lines) + tail)
    return path


def claude_reply(message_id: str, block: dict[str, Any], usage: dict[str, int], *,
                 model: str = "claude-opus-4-8", sidechain: bool = False) -> dict[str, Any]:
    """One line of a Claude Code reply: one content block, the reply's id and usage."""
    return {"type": "assistant", "isSidechain": sidechain, "sessionId": "s",
            "message": {"id": message_id, "type": "message", "role": "assistant",
                        "model": model, "content": [block],
                        "usage": {"input_tokens": usage["input"],
                                  "output_tokens": usage["output"],
                                  "cache_read_input_tokens": usage.get("cache_read", 0),
                                  "cache_creation_input_tokens": usage.get("cache_write", 0)}}}


def tool_use(block_id: str, name: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": block_id, "name": name, "input": {}}


TEXT = {"type": "text", "text": "done"}
THINKING = {"type": "thinking", "thinking": "hmm"}


PROVIDERS = {"claude": "claude", "pi": "pi-agent", "agy": "agy", "opencode": "opencode"}
CONVERSATION = "0b6f3c1e-8a55-4c1f-9d1e-2f1a3b4c5d6e"


def direct_session(plain: Path, session_id: str, agent: str,
                   conversation: str = CONVERSATION) -> None:
    """A finished session of ``agent`` in direct mode in ``plain``, naming its conversation."""
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore
    from tests.sessions.session_testkit import make_session

    project = find_project(plain)
    make_session(project, session_id)

    def name_it(record: Any) -> None:
        record.provider, record.conversation_id = PROVIDERS[agent], conversation

    SessionStore(project).update(session_id, name_it)


def transcript_path(agent: str, home: Path, workdir: Path,
                    conversation: str = CONVERSATION) -> Path:
    """Where ``agent`` keeps the transcript of ``conversation`` run in ``workdir``."""
    from gzia.drivers import transcripts as where

    env = agent_env(home)
    if agent == "claude":
        folder = where.claude_projects_dir(env) / where.claude_slug(str(workdir))
        name = f"{conversation}.jsonl"
    elif agent == "pi":
        folder = where.pi_sessions_dir(env) / where.pi_slug(str(workdir))
        name = f"2026-12-01T00-00-00-000Z_{conversation}.jsonl"
    else:
        folder, name = where.agy_dir(env) / "brain" / conversation, "transcript.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def good_lines(agent: str) -> list[str]:
    """Lines holding one request of 9 input and 4 output tokens (agy: 4 estimated output
    tokens), and for pi a cost of 0.5."""
    import json

    line = {"claude": claude_reply("good", TEXT, {"input": 9, "output": 4}),
            "pi": {"type": "message", "message": {
                "role": "assistant", "model": "m", "content": [],
                "usage": {"input": 9, "output": 4, "cost": {"total": 0.5}}}},
            "agy": {"type": "PLANNER_RESPONSE", "source": "MODEL", "content": "y" * 16}}[agent]
    header = [json.dumps({"type": "session", "id": CONVERSATION})] if agent == "pi" else []
    return [*header, json.dumps(line)]


def strict_json(text: str) -> Any:
    """The one JSON document of ``text``, read as RFC 8259 says: NaN and Infinity are not
    JSON, and neither is more than one document."""
    import json

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one JSON document, got: {text[:2000]!r}"
    return json.loads(lines[0], parse_constant=refuse)
