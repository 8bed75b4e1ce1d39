"""The session commands through the shipped zipapp, as real processes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import find_project
from tests.conftest import Result
from tests.sessions.session_testkit import (
    COMPLETED_ISOLATED,
    commit_file,
    go_record,
    make_session,
    run_git,
)

RunPyz = Callable[..., Result]


@pytest.mark.pyz
def test_pyz_lists_an_original_record_and_rejects_traversal(run_pyz: RunPyz, repo: Path) -> None:
    sessions = repo / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "3f9a1c7e.json").write_text(go_record(COMPLETED_ISOLATED, repo))
    listed = run_pyz("session", "list", "--json", cwd=repo)
    assert listed.exit_code == 0
    [record] = listed.json["data"]["sessions"]
    assert {k: record[k] for k in json.loads(go_record(COMPLETED_ISOLATED, repo))} == json.loads(
        go_record(COMPLETED_ISOLATED, repo))
    bad = run_pyz("session", "show", "../../etc", env={"GZ_LANG": "es"}, cwd=repo)
    assert (bad.exit_code, bad.stdout) == (2, "")
    assert bad.stderr.startswith("Error: id de sesión inválido '../../etc'")


@pytest.mark.pyz
def test_pyz_merges_a_session_from_inside_its_worktree(run_pyz: RunPyz, repo: Path) -> None:
    make_session(find_project(repo), "abcdef01")
    worktree = repo / ".harness" / "worktrees" / "abcdef01"
    commit_file(worktree, "done.txt", "done\n")
    result = run_pyz("session", "merge", "abcdef01", cwd=worktree)
    assert result == Result(0, "✓ Merge completed successfully for session 'abcdef01'.\n"
                               "Integrated files:\n  • done.txt\n"
                               "Fast-forward of main: no merge commit was made.\n", "")
    # The base had not moved: a fast-forward, as with the original.
    assert run_git(repo, "rev-parse", "HEAD") == run_git(repo, "rev-parse", "harness/abcdef01")
    assert (repo / "done.txt").read_text() == "done\n"


@pytest.mark.pyz
def test_pyz_hands_its_own_hook_to_claude_code(run_pyz: RunPyz, pyz: Path, repo: Path,
                                                tmp_path: Path) -> None:
    """The agent's hooks run the same zipapp (gz-ia __hook__), and report each state."""
    from tests.background.test_agent_state import STAND_IN_CLAUDE
    from tests.supervisor.fakes import write_agent

    bin_dir, notes = tmp_path / "bin", tmp_path / "notes"
    bin_dir.mkdir()
    notes.mkdir()
    write_agent(bin_dir / "claude", STAND_IN_CLAUDE)
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_NOTES": str(notes)}
    result = run_pyz("--json", "chat", "-p", "claude", "-i", "go", "--no-mcp", env=env, cwd=repo)

    assert result.exit_code == 0, result.stderr
    session_id = result.json["data"]["id"]
    hook = json.loads((notes / "settings.json").read_text())["hooks"]["Stop"][0]["hooks"][0]
    assert hook["args"][:2] == [str(pyz), "__hook__"]
    events = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    states = [e["state"] for e in map(json.loads, events.open()) if e.get("type") == "state"]
    assert states == ["starting", "working", "waiting", "working", "idle", "exited"]
