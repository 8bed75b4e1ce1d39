"""SIGKILL of gz-ia at any moment of ``session merge`` (plain and ``--squash``) leaves the
base untouched or fully merged, never in between, and the next merge completes the record.

Each test kills 50 merges (a bounded loop with a time budget), at random moments spread
over a merge's whole run, measured first on an uninterrupted one.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git
from tests.shared_fixtures import trials

Cli = Callable[..., Result]
KILLS = trials(20, 100)
BUDGET_S = 600.0
ORPHAN_WAIT_S = 30.0
MERGE_STATE_FILES = ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "SQUASH_MSG", "AUTO_MERGE")


def _prepare(project: Project, number: int) -> tuple[str, str]:
    """A session with a commit and uncommitted work, and a base that moved on (so a plain
    merge makes a merge commit); (session id, base HEAD)."""
    session_id = f"{number:08x}"
    make_session(project, session_id)
    worktree = project.worktrees_dir / session_id
    commit_file(worktree, f"agent-{session_id}.txt", "committed\n")
    (worktree / f"notes-{session_id}.txt").write_text("uncommitted\n")
    commit_file(project.root, f"base-{session_id}.txt", "base\n")
    return session_id, run_git(project.root, "rev-parse", "HEAD").strip()


def _start_merge(root: Path, session_id: str, squash: bool) -> subprocess.Popen[bytes]:
    flags = ["--squash"] if squash else []
    return subprocess.Popen([sys.executable, "-m", "gzia", "--json", "session", "merge",
                             session_id, *flags, "-d", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _wait_for_orphans(where: Path) -> None:
    """git commands a killed gz-ia left running finish on their own: wait for them."""
    deadline = time.monotonic() + ORPHAN_WAIT_S
    while _processes_in(where):
        assert time.monotonic() < deadline, "git never finished after gz-ia was killed"
        time.sleep(0.02)


def _processes_in(where: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                cwd = Path(os.readlink(entry / "cwd"))
            except OSError:
                continue
            if cwd == where or where in cwd.parents:
                found.append(int(entry.name))
    return found


def _base_state(root: Path, base_head: str, session_id: str, squash: bool) -> str:
    """``untouched`` or ``merged``; anything else fails the test with what was found."""
    leftovers = [name for name in MERGE_STATE_FILES if (root / ".git" / name).exists()]
    status = run_git(root, "status", "--porcelain", "--untracked-files=all")
    head = run_git(root, "rev-parse", "HEAD").strip()
    assert (leftovers, status) == ([], ""), f"base in between: {leftovers} {status!r}"
    if head == base_head:
        return "untouched"
    tip = run_git(root, "rev-parse", f"harness/{session_id}").strip()
    parents = run_git(root, "rev-list", "--parents", "-n", "1", head).split()[1:]
    assert parents == ([base_head] if squash else [base_head, tip]), "HEAD is not our merge"
    expected = run_git(root, "merge-tree", "--write-tree", base_head, tip).split()[0]
    assert run_git(root, "rev-parse", "HEAD^{tree}").strip() == expected
    return "merged"


def _assert_next_merge_completes(cli: Cli, project: Project, session_id: str,
                                 squash: bool, seen: str) -> None:
    flags = ("--squash",) if squash else ()
    result = cli("session", "merge", session_id, *flags, "--json", "-d", str(project.root))
    assert result.exit_code == 0, result.stdout
    assert result.json["data"]["already_up_to_date"] == (seen == "merged")
    record = SessionStore(project).load(session_id)
    tip = run_git(project.root, "rev-parse", f"harness/{session_id}").strip()
    assert (record.merged_at is not None, record.merged_commit) == (True, tip)
    assert run_git(project.root, "status", "--porcelain", "--untracked-files=all") == ""


def _calibrate(project: Project, squash: bool) -> float:
    session_id, _ = _prepare(project, 0xFFFF)
    started = time.monotonic()
    assert _start_merge(project.root, session_id, squash).wait(60) == 0
    return time.monotonic() - started


@pytest.mark.timeout(BUDGET_S + 120)
@pytest.mark.parametrize("squash", [False, True], ids=["merge", "squash"])
def test_sigkill_at_any_moment_leaves_the_base_untouched_or_fully_merged(
    cli: Cli, project: Project, squash: bool
) -> None:
    rng = random.Random()  # noqa: S311 - kill delays, not secrets
    full_run = _calibrate(project, squash)
    deadline = time.monotonic() + BUDGET_S
    outcomes: dict[str, int] = {"untouched": 0, "merged": 0}
    for number in range(1, KILLS + 1):
        assert time.monotonic() < deadline, f"only {number - 1} kills within {BUDGET_S}s"
        session_id, base_head = _prepare(project, number)
        child = _start_merge(project.root, session_id, squash)
        time.sleep(rng.uniform(0.2, 1.1) * full_run)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
        _wait_for_orphans(project.root.parent)
        seen = _base_state(project.root, base_head, session_id, squash)
        outcomes[seen] += 1
        _assert_next_merge_completes(cli, project, session_id, squash, seen)
    assert sum(outcomes.values()) == KILLS


def test_the_squash_commit_runs_the_commit_hooks_on_the_merged_index(
    cli: Cli, project: Project, tmp_path: Path
) -> None:
    """Built beside the base, the squash commit still goes through the project's hooks as
    ``git commit`` runs them (in the base; the worktree's safety commit runs them there
    too, and is left out): pre-commit sees the merged files staged, commit-msg may
    change the message, post-commit runs once the base has moved."""
    root, seen = project.root, tmp_path / "seen"
    session_id, base_head = _prepare(project, 1)
    hooks = root / ".git" / "hooks"
    for name, body in {
        "pre-commit": f'git diff --cached --name-only HEAD >> "{seen}"\n',
        "prepare-commit-msg": f'echo "prepare $2" >> "{seen}"\n',
        "commit-msg": 'printf "JIRA-1 %s" "$(cat "$1")" > "$1.new" && mv "$1.new" "$1"\n',
        "post-commit": f'git log -1 --format=%s >> "{seen}"\n',
    }.items():
        only_in_base = f'[ "$(pwd -P)" = "{root.resolve()}" ] || exit 0\n'
        (hooks / name).write_text("#!/bin/sh\n" + only_in_base + body)
        (hooks / name).chmod(0o755)
    result = cli("session", "merge", session_id, "--squash", "--json", "-d", str(root))
    assert result.exit_code == 0, result.stdout
    subject = f"JIRA-1 harness({session_id}): merge session changes (squash)"
    assert seen.read_text() == (f"agent-{session_id}.txt\nnotes-{session_id}.txt\n"
                                f"prepare squash\n{subject}\n")
    assert run_git(root, "log", "-1", "--format=%s%n%P").split() == [*subject.split(),
                                                                      base_head]
    assert not list(project.harness_dir.glob("merge-squash.*"))
