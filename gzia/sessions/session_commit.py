"""Committing a session's work on its branch (Orchy's ``workspace_commit``).

What stays out is decided here, from the session's own files, never from the
environment of the process that asks (an MCP client may start the server with nothing
but ``HOME`` and ``PATH``): gz-ia's directories (``.harness/``, ``.harness-session/``),
and every path a projection of the session created (its manifest) or ever created
(``<id>.projected``), even one the agent force-added to the index.

One commit at a time per worktree (a lock beside the worktree's index): a call that
finds nothing left to commit answers ``committed: false``. A failure (a hook refusing,
git failing, a stop) puts the worktree's index back byte for byte; nothing is staged.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import LockedError
from gzia.filelock import hold_lock
from gzia.i18n import N_
from gzia.sessions.git import (
    commit_with_fallback_identity,
    git_failure,
    index_path,
    rev_parse,
    run_git,
)
from gzia.sessions.guard import unguarded
from gzia.sessions.merge import SavedIndex
from gzia.sessions.project import Project
from gzia.sessions.projection import ever_projected, projected_paths
from gzia.sessions.workspace import HARNESS_PATHS, ensure_excluded

if TYPE_CHECKING:
    from gzia import proc

COMMIT_LOCK = "gz-ia-commit.lock"
"""Beside the worktree's index in its git directory: it goes with the worktree."""
LOCK_TIMEOUT = 20.0
"""Seconds a commit waits for another one of the same worktree (under Orchy's tool
timeout, so the caller hears ``LOCKED`` rather than a timeout)."""


@dataclass(frozen=True)
class SessionCommit:
    committed: bool
    commit: str | None
    files: list[str]


def commit_session_work(project: Project, session_id: str, worktree: Path,
                        message: str, *, save_point: bool = False) -> SessionCommit:
    """Commit every change of ``worktree`` but gz-ia's own files, on its branch.

    ``save_point`` (``session pause``): the project's ``pre-commit`` and ``commit-msg``
    hooks are not run (half-done work would fail them, and the work must be kept), a
    session's guardrails in gz-ia's own environment do not apply (gz-ia commits, not an
    agent), and each git command holds the commit lock until it ends, so one left running
    by a killed gz-ia finishes before a retry starts."""
    with _commit_lock(session_id, worktree) as lock:
        ensure_excluded(project)
        saved = SavedIndex.of(worktree)
        git = _Git(worktree, unguarded(os.environ) if save_point else {},
                   (lock,) if save_point else None)
        try:
            files = _stage(project, session_id, git)
            if not files:
                return SessionCommit(False, None, [])
            done = git.commit(["commit", "-q", *(["--no-verify"] if save_point else []),
                               "-m", message])
            if not done.ok:
                raise git_failure(done)
        except BaseException:
            saved.restore()
            raise
    return SessionCommit(True, rev_parse(worktree, "HEAD"), files)


@dataclass(frozen=True)
class _Git:
    worktree: Path
    env: dict[str, str]
    pass_fds: tuple[int, ...] | None
    """Set: every command outlives a killed gz-ia, holding these descriptors."""

    def ok(self, args: list[str]) -> str:
        done = run_git(args, self.worktree, env=self.env, outlive_caller=bool(self.pass_fds),
                       pass_fds=self.pass_fds or ())
        if not done.ok:
            raise git_failure(done)
        return done.stdout

    def commit(self, args: list[str]) -> proc.Completed:
        return commit_with_fallback_identity(args, self.worktree, env=self.env,
                                             pass_fds=self.pass_fds)


def _stage(project: Project, session_id: str, git: _Git) -> list[str]:
    """Stage everything, then unstage gz-ia's own paths; the paths staged against HEAD."""
    git.ok(["add", "-A"])  # .harness*/ are in info/exclude: never named here
    hidden = sorted({*projected_paths(project, session_id),
                     *ever_projected(project, session_id)})
    ours = [*(f":(top){name}" for name in HARNESS_PATHS),
            *(f":(top,literal){path}" for path in hidden)]
    git.ok(["reset", "-q", "--", *ours])
    names = git.ok(["diff", "--cached", "--no-renames", "--name-only", "-z", "HEAD"])
    return [name for name in names.split("\0") if name]


@contextlib.contextmanager
def _commit_lock(session_id: str, worktree: Path) -> Iterator[int]:
    path = index_path(worktree).with_name(COMMIT_LOCK)
    fd = hold_lock(path, time.monotonic() + LOCK_TIMEOUT, poll=0.02, locked=lambda: (
        LockedError(N_("another commit of session {id} has held its worktree for {seconds} s; try "
                       "again"),
                    id=session_id, seconds=int(LOCK_TIMEOUT),
                    details={"id": session_id})))
    try:
        yield fd
    finally:
        os.close(fd)
