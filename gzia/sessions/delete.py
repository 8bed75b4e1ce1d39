"""``session delete``: remove a session's record, events, log, worktree and branch.

It refuses (``SAFETY_BLOCK``) to drop work that exists nowhere else: commits on
``harness/<id>`` that no other branch holds and that were not merged by gz-ia, or
uncommitted files in the worktree; and it refuses to delete a running session. ``--force``
overrides both (a running session is stopped first through ``gzia.sessions.kill``).

Only the paths a session owns are removed: ``.harness/worktrees/<id>`` and the branch
``harness/<id>`` (never a path read from the record, which could have been edited).
"""

from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gzia.contract import ConflictError, SafetyBlockError
from gzia.sessions.git import changed_paths, commits_on_no_branch, rev_parse, run_git
from gzia.sessions.merge_checks import HARNESS_PATHS
from gzia.sessions.project import Project
from gzia.sessions.reconcile import reconcile, wait_for_owner
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import (
    branch_exists,
    branch_for,
    forget_missing_worktree,
    worktree_for,
)

if TYPE_CHECKING:
    from gzia.supervisor.killtarget import KillTarget

KILL_MODULE = "gzia.sessions.kill"


@dataclass
class UnmergedWork:
    commits: int = 0
    files: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.commits or self.files)


@dataclass
class DeleteResult:
    session_id: str
    killed: bool = False
    removed_worktree: bool = False
    removed_branch: bool = False
    discarded: UnmergedWork = field(default_factory=UnmergedWork)
    kill_target: KillTarget | None = None
    """What stopping a running session signalled (its group, or only its process)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session_id, "deleted": True, "killed": self.killed,
                "removed_worktree": self.removed_worktree,
                "removed_branch": self.removed_branch,
                "discarded_commits": self.discarded.commits,
                "discarded_files": self.discarded.files}


def unmerged_work(project: Project, record: SessionRecord) -> UnmergedWork:
    """Work of the session that would be lost: unmerged commits, uncommitted files."""
    if not project.is_git or not record.is_isolated:
        return UnmergedWork()
    work = UnmergedWork()
    worktree = worktree_for(project, record.id)
    if (worktree / ".git").is_file():
        work.files = changed_paths(worktree, ignore_dirs=HARNESS_PATHS)
    work.commits = _unmerged_commits(project, record)
    return work


def _unmerged_commits(project: Project, record: SessionRecord) -> int:
    """Commits only the session's branch or its worktree's HEAD hold (both go on delete).

    The worktree's HEAD counts too: commits made there on a detached HEAD are on no
    branch, and removing the worktree drops the only reflog that knows them.
    """
    branch = branch_for(record.id)
    tip = rev_parse(project.root, branch)
    tips = [tip] if tip is not None and tip != record.merged_commit else []
    worktree = worktree_for(project, record.id)
    head = rev_parse(worktree, "HEAD") if (worktree / ".git").is_file() else None
    if head is not None and head != tip:
        tips.append(head)
    return commits_on_no_branch(project.root, tips, except_branch=branch)


def delete_session(store: SessionStore, record: SessionRecord, *, force: bool) -> DeleteResult:
    result = DeleteResult(record.id)
    record = reconcile(store, wait_for_owner(store, record))
    if record.is_running:
        record, result.kill_target, result.killed = _stop(store, record, force=force)
    result.discarded = unmerged_work(store.project, record)
    if result.discarded and not force:
        raise _unmerged_refusal(record.id, result.discarded)
    _remove_workspace(store.project, record, result)
    store.delete(record.id)
    return result


def _stop(
    store: SessionStore, record: SessionRecord, *, force: bool
) -> tuple[SessionRecord, KillTarget | None, bool]:
    """The record once stopped, what was signalled, and whether gz-ia stopped it (False:
    it ended on its own meanwhile, and its owner recorded how)."""
    details = {"id": record.id, "pid": record.pid}
    if not force:
        raise SafetyBlockError("sessions.delete_running", id=record.id, pid=record.pid,
                               hint_key="sessions.force_hint", details=details)
    try:
        kill = importlib.import_module(KILL_MODULE)
    except ModuleNotFoundError:
        raise SafetyBlockError("sessions.delete_running_no_kill", id=record.id, pid=record.pid,
                               details=details) from None
    from gzia.config import load_config

    grace_s = int(load_config().get("kill_grace_ms")) / 1000.0
    try:
        killed = kill.kill_session(store, record.id, grace_s)
    except ConflictError:
        final = store.load(record.id)
        if final.is_running:
            raise
        return final, None, False
    return store.load(record.id), killed.target, True


def _unmerged_refusal(session_id: str, work: UnmergedWork) -> SafetyBlockError:
    from gzia.i18n import t

    parts = []
    if work.commits:
        parts.append(t("sessions.delete_what_commits", count=work.commits))
    if work.files:
        parts.append(t("sessions.delete_what_files", count=len(work.files)))
    return SafetyBlockError(
        "sessions.delete_unmerged", id=session_id, what=", ".join(parts),
        hint_key="sessions.force_hint",
        details={"id": session_id, "unmerged_commits": work.commits,
                 "uncommitted_files": work.files},
    )


def _remove_workspace(project: Project, record: SessionRecord, result: DeleteResult) -> None:
    injected = project.harness_dir / "session-files" / record.id
    shutil.rmtree(injected, ignore_errors=True)
    if not project.is_git:
        return
    worktree, branch = worktree_for(project, record.id), branch_for(record.id)
    if worktree.exists():
        run_git(["worktree", "remove", "--force", str(worktree)], project.root)
        shutil.rmtree(worktree, ignore_errors=True)
        result.removed_worktree = True
    forget_missing_worktree(project, worktree)  # if 'worktree remove' could not
    if branch_exists(project.root, branch):
        result.removed_branch = run_git(["branch", "-D", branch], project.root).ok
