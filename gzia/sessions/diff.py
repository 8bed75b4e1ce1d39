"""``session diff``: what a session changed, against where its branch left the base.

The worktree may have an agent working in it, so its index is never touched: untracked
files are made visible to ``git diff`` through a private copy of the index
(``GIT_INDEX_FILE``) that is thrown away afterwards.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import NotFoundError
from gzia.i18n import N_
from gzia.sessions.git import git_failure, git_ok, private_index, rev_parse, run_git
from gzia.sessions.project import HARNESS_DIR, Project
from gzia.sessions.projection import projected_paths
from gzia.sessions.record import SessionRecord
from gzia.sessions.workspace import INJECTED_DIR, branch_exists, branch_for, worktree_for

_DIFF = ("-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff")
"""Paths as they are (``dir ñ/a.txt``, not ``"dir \\303\\261/a.txt"``), as merge and JSON
show them; quotes remain only around names with control characters."""
_NOT_OURS = ("--", ":(top)", f":(exclude,top){INJECTED_DIR}", f":(exclude,top){HARNESS_DIR}")
"""Every path but gz-ia's own: injected files may hold credentials (an MCP token)."""


@dataclass
class DiffResult:
    session_id: str
    is_isolated: bool
    stat: bool
    base: str | None = None
    files: list[str] = field(default_factory=list)
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session_id, "is_isolated": self.is_isolated, "stat": self.stat,
                "base": self.base, "files": self.files, "diff": self.text}


def session_diff(project: Project, record: SessionRecord, *, stat: bool = False) -> DiffResult:
    if not record.is_isolated:
        return DiffResult(record.id, False, stat)
    worktree, branch = worktree_for(project, record.id), branch_for(record.id)
    has_branch = project.is_git and branch_exists(project.root, branch)
    if project.is_git and (worktree / ".git").is_file():
        base = _base_ref(project, record, branch if has_branch else "HEAD")

        hidden = [f":(exclude,top,literal){p}" for p in projected_paths(project, record.id)]
        files, text = _worktree_diff(worktree, base, stat, hidden)
    elif has_branch:
        base = _base_ref(project, record, branch)
        files, text = _branch_diff(project.root, base, branch, stat)
    else:
        raise NotFoundError(N_("session '{id}': neither its worktree nor its branch is available"),
                            id=record.id, details={"id": record.id})
    return DiffResult(record.id, True, stat, base, files, text)


def _base_ref(project: Project, record: SessionRecord, branch: str) -> str:
    """Where the session forked: merge-base of its branch and its base branch."""
    base = record.base_branch if record.base_branch and branch_exists(
        project.root, record.base_branch) else "HEAD"
    done = run_git(["merge-base", base, branch], project.root)
    if done.ok and done.stdout.strip():
        return done.stdout.strip()
    return record.base_commit or rev_parse(project.root, "HEAD") or "HEAD"


def _worktree_diff(worktree: Path, base: str, stat: bool,
                   hidden: list[str]) -> tuple[list[str], str]:
    """``hidden``: pathspecs of what profiles projected into a running session's worktree
    (a tracked file they appended to is ``skip-worktree``: git reads it unchanged)."""
    with tempfile.TemporaryDirectory(prefix="gzia-diff-") as scratch:
        env = private_index(worktree, Path(scratch))
        untracked = git_ok(["ls-files", "-z", "--others", "--exclude-standard"], worktree, env=env)
        if untracked:
            done = run_git(["add", "--intent-to-add", "--pathspec-from-file=-",
                            "--pathspec-file-nul"], worktree,
                           env={**env, "GIT_LITERAL_PATHSPECS": "1"}, input_text=untracked)
            if not done.ok:
                raise git_failure(done)
        paths = [*_NOT_OURS, *hidden]
        names = git_ok(["diff", "--name-only", "-z", base, *paths], worktree, env=env)
        text = git_ok([*_DIFF, *(["--stat"] if stat else []), base, *paths],
                      worktree, env=env)
    return [n for n in names.split("\0") if n], text


def _branch_diff(root: Path, base: str, branch: str, stat: bool) -> tuple[list[str], str]:
    names = git_ok(["diff", "--name-only", "-z", base, branch, *_NOT_OURS], root)
    text = git_ok([*_DIFF, *(["--stat"] if stat else []), base, branch, *_NOT_OURS], root)
    return [n for n in names.split("\0") if n], text
