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
