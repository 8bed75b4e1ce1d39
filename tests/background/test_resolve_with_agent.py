"""``--resolve-with-agent``: a conflict handed to a new background session whose stand-in
agent (a ``claude`` on PATH, as the real CLI is started) resolves and commits it; the base
and the first session are untouched until the person merges."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import start_background, wait_final
from tests.conftest import Result
from tests.run.conftest import git

Gz = Callable[..., Result]

RESOLVER = """
import json
prompt = sys.argv[sys.argv.index("--") + 1]
note("prompt", prompt)
conflicted = subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"],
                            capture_output=True, text=True, check=True).stdout.split()
note("conflicted", json.dumps(conflicted))
for name in conflicted:
    with open(name, "w") as handle:
        handle.write("both sides, resolved\\n")
subprocess.run(["git", "add", *conflicted], check=True)
subprocess.run(["git", "-c", "user.name=Agent", "-c", "user.email=agent@example.com",
                "commit", "-q", "--no-edit"], check=True)
"""

WRITER = """
with open("shared.txt", "w") as handle:
    handle.write("the session's version\\n")
"""


def state(repo: Path) -> tuple[str, str]:
    return git(repo, "rev-parse", "main"), git(repo, "status", "--porcelain")


@pytest.fixture
def conflicted(gz: Gz, agent: Any, repo: Path) -> str:
    """A finished session that left ``shared.txt`` uncommitted, and a base that committed
    its own ``shared.txt`` since."""
    agent("writer", WRITER)
    session_id = start_background(gz, repo, "writer")["id"]
    assert wait_final(repo, session_id)["status"] == "completed"
    (repo / "shared.txt").write_text("the base's version\n")
    git(repo, "add", "shared.txt")
    git(repo, "commit", "-q", "-m", "base: shared")
    return str(session_id)


@pytest.mark.parametrize("command", ["update", "merge"])
def test_a_conflict_is_resolved_by_a_new_session(gz: Gz, agent: Any, repo: Path, *,
                                                 notes: Path, conflicted: str,
                                                 command: str) -> None:
    agent("claude", RESOLVER)
    before = state(repo)
    result = gz("--json", "session", command, conflicted, "--resolve-with-agent", "-p",
                "claude", cwd=repo)

    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert (data["id"], data["conflict"]["files"], data["conflict"]["base"]) == (
        conflicted, ["shared.txt"], "main")
    resolver = data["resolver"]
    assert (resolver["provider"], resolver["labels"], resolver["name"]) == (
        "claude", {"resolves": conflicted}, f"resolve {conflicted}")
    final = wait_final(repo, resolver["id"])
    assert final["status"] == "completed"

    worktree = Path(resolver["worktree_dir"])
    assert json.loads((notes / "conflicted").read_text()) == ["shared.txt"]
    prompt = (notes / "prompt").read_text()
    assert f"work of session {conflicted}" in prompt and "conflicts in: shared.txt" in prompt
    parents = git(worktree, "log", "-1", "--format=%P").split()
    assert parents[1] == before[0]  # the base, merged in
    assert git(repo, "rev-parse", f"harness/{conflicted}") == parents[0]
    assert (worktree / "shared.txt").read_text() == "both sides, resolved\n"
    assert state(repo) == before  # the base is touched only when the person merges

    merged = gz("session", "merge", resolver["id"], cwd=repo)
    assert merged.exit_code == 0, merged.stderr
    assert (repo / "shared.txt").read_text() == "both sides, resolved\n"


def test_without_the_flag_the_conflict_is_refused(gz: Gz, repo: Path, conflicted: str) -> None:
    result = gz("--json", "session", "update", conflicted, cwd=repo)
    assert (result.exit_code, result.json["errors"][0]["code"]) == (1, "CONFLICT")
    assert git(repo, "branch", "--list", "harness/*").count("harness/") == 1


def test_an_agent_that_takes_no_prompt_cannot_resolve(gz: Gz, repo: Path,
                                                      conflicted: str) -> None:
    result = gz("--json", "session", "update", conflicted, "--resolve-with-agent", "-p",
                "shell", cwd=repo)
    assert (result.exit_code, result.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
    assert git(repo, "branch", "--list", "harness/*").count("harness/") == 1
