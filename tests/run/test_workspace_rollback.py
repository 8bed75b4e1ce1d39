"""A session whose workspace cannot be prepared leaves nothing behind: no worktree, no
branch, no record, whether git fails or gz-ia is interrupted while git works."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.run.conftest import GzProcess, git

Gz = Callable[..., Result]


def post_checkout_hook(repo: Path, body: str) -> Path:
    hook = repo / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\n{body}\n")
    hook.chmod(0o755)
    return hook


def assert_nothing_left(repo: Path) -> None:
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert git(repo, "branch", "--list", "harness/*") == ""
    assert list((repo / ".harness").glob("sessions/*.json")) == []
    assert list((repo / ".harness").glob("worktrees/*")) == []


def test_a_failing_worktree_add_leaves_no_worktree_branch_or_record(gz: Gz, repo: Path):
    post_checkout_hook(repo, "echo hook refused >&2; exit 1")

    result = gz("--json", "exec", "--", "true", cwd=repo)

    assert result.exit_code == 1
    assert [e["code"] for e in result.json["errors"]] == ["IO"]
    assert result.json["data"] is None
    assert_nothing_left(repo)


@pytest.mark.parametrize(("signum", "exit_code"), [
    (signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 143),
])
def test_a_signal_while_the_worktree_is_added_leaves_nothing(
    gz_start: GzProcess, repo: Path, tmp_path: Path, signum: int, exit_code: int
):
    marker = tmp_path / "hook-running"
    post_checkout_hook(repo, f"touch {marker}; sleep 5")
    process = gz_start("--json", "exec", "--", "true", cwd=repo)
    deadline = time.monotonic() + 15
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists()

    process.send_signal(signum)
    out, _ = process.communicate(timeout=30)

    assert process.returncode == exit_code
    assert '"ok": false' in out
    assert_nothing_left(repo)


def test_a_failed_re_add_on_resume_keeps_the_sessions_branch(gz: Gz, agent: Callable[..., Path],
                                                            repo: Path):
    agent("commit-work", "open('work.txt', 'w').write('x')\n"
                         "subprocess.run(['git', 'add', 'work.txt'], check=True)\n"
                         "subprocess.run(['git', 'commit', '-qm', 'work'], check=True)\n")
    first = gz("--json", "exec", "--", "commit-work", cwd=repo)
    assert first.exit_code == 0, first.stderr
    record = first.json["data"]
    git(repo, "worktree", "remove", "--force", record["worktree_dir"])
    post_checkout_hook(repo, "exit 1")

    again = gz("--json", "resume", record["id"], cwd=repo)

    assert again.exit_code == 1
    assert git(repo, "log", "--format=%s", "-1", record["branch_name"]) == "work"
    assert not Path(record["worktree_dir"]).exists()
