"""``session delete``: remove a session's record, events, log, worktree and branch.

It refuses (``SAFETY_BLOCK``) to drop work that exists nowhere else: commits on
``harness/<id>`` that no other branch holds, that were not merged by gz-ia and whose
changes the base does not hold (a squash merge leaves them on no branch), or uncommitted
files in the worktree; and it refuses to delete a running session. ``--force``
overrides both (a running session is stopped first through ``gzia.sessions.kill``).

Only the paths a session owns are removed: ``.harness/worktrees/<id>`` and the branch
``harness/<id>`` (never a path read from the record, which could have been edited).
"""

from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.config import load_config
from gzia.contract import ConflictError, SafetyBlockError
from gzia.i18n import N_, NN_, ngettext
from gzia.sessions.git import commits_on_no_branch, holds_work_of, rev_parse, run_git
from gzia.sessions.project import Project
from gzia.sessions.projection import unproject
from gzia.sessions.reconcile import reconcile, wait_for_owner
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.symlinks import refuse_symlink
from gzia.sessions.workspace import (
    branch_exists,
    branch_for,
    forget_missing_worktree,
    worktree_for,
)
from gzia.sessions.worktree_work import files_in, uncommitted_files

if TYPE_CHECKING:
    from gzia.supervisor.killtarget import KillTarget

KILL_MODULE = "gzia.sessions.kill"


@dataclass
class UnmergedWork:
    commits: int = 0
    files: list[str] = field(default_factory=list)
    unreadable: bool = False
    """git cannot read the worktree: ``files`` is every file its directory holds."""

    def __bool__(self) -> bool:
        return bool(self.commits or self.files)

    def describe(self) -> str:
        """``1 unmerged commit, 2 uncommitted files``, in the user's language."""

        parts = []
        if self.commits:
            parts.append(ngettext("{count} unmerged commit", "{count} unmerged commits",
                                  self.commits))
        if self.files:
            parts.append(ngettext("{count} uncommitted file", "{count} uncommitted files",
                                  len(self.files)))
        return ", ".join(parts)


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
    worktree = worktree_for(project, record.id)
    files = uncommitted_files(worktree)
    work = UnmergedWork(files=files_in(worktree) if files is None else files,
                        unreadable=files is None)
    work.commits = _unmerged_commits(project, record)
    return work


def _unmerged_commits(project: Project, record: SessionRecord) -> int:
    """Commits only the session's branch or its worktree's HEAD hold (both go on delete).

    The worktree's HEAD counts too: commits made there on a detached HEAD are on no
    branch, and removing the worktree drops the only reflog that knows them.
    """
    branch = branch_for(record.id)
    tip = rev_parse(project.root, branch)
    tips = [tip] if tip is not None and not _merged(project, record, tip) else []
    worktree = worktree_for(project, record.id)
    head = rev_parse(worktree, "HEAD") if (worktree / ".git").is_file() else None
    if head is not None and head != tip:
        tips.append(head)
    return commits_on_no_branch(project.root, tips, except_branch=branch)


def _merged(project: Project, record: SessionRecord, tip: str) -> bool:
    """``merge`` recorded this tip, or the base branch (or the checked-out one) already
    holds its changes: a ``merge --squash --no-commit`` the user then committed, work
    merged by hand."""
    if tip == record.merged_commit:
        return True
    bases = ["HEAD"]
    if record.base_branch and branch_exists(project.root, record.base_branch):
        bases.insert(0, record.base_branch)
    return any(holds_work_of(project.root, base, tip) for base in bases)


def delete_session(store: SessionStore, record: SessionRecord, *, force: bool) -> DeleteResult:
    result = DeleteResult(record.id)
    _refuse_links(store, record.id)
    record = reconcile(store, wait_for_owner(store, record))
    if record.is_running:
        record, result.kill_target, result.killed = _stop(store, record, force=force)
    if record.is_isolated and store.project.is_git:  # a projection a killed gz-ia left

        unproject(store.project, record.id, worktree_for(store.project, record.id))
    result.discarded = unmerged_work(store.project, record)
    if result.discarded and not force:
        raise _unmerged_refusal(store.project, record.id, result.discarded)
    _remove_workspace(store.project, record, result)
    store.delete(record.id)
    return result


@dataclass(frozen=True)
class DeletePreview:
    """What ``delete`` would remove, and the refusal it would make without ``--force``."""

    record: SessionRecord
    refusal: SafetyBlockError | None
    work: UnmergedWork
    """The work that exists nowhere else (lost on a forced delete)."""
    worktree: Path | None
    branch: str | None


def preview_delete(store: SessionStore, record: SessionRecord) -> DeletePreview:
    """The checks ``delete`` makes first; nothing changes (the terminal UI asks after them)."""
    _refuse_links(store, record.id)
    record = reconcile(store, record)
    work = unmerged_work(store.project, record)
    refusal = (running_refusal(record) if record.is_running
               else _unmerged_refusal(store.project, record.id, work) if work else None)
    worktree, branch = worktree_for(store.project, record.id), branch_for(record.id)
    has_branch = store.project.is_git and branch_exists(store.project.root, branch)
    return DeletePreview(record, refusal, work, worktree if worktree.exists() else None,
                         branch if has_branch else None)


def _refuse_links(store: SessionStore, session_id: str) -> None:
    """Every path delete removes is checked before anything is removed or stopped."""
    for path in (worktree_for(store.project, session_id),
                 _injected_dir(store.project, session_id), *store.files_of(session_id)):
        refuse_symlink(path)


def _injected_dir(project: Project, session_id: str) -> Path:
    return project.harness_dir / "session-files" / session_id


def _stop(
    store: SessionStore, record: SessionRecord, *, force: bool
) -> tuple[SessionRecord, KillTarget | None, bool]:
    """The record once stopped, what was signalled, and whether gz-ia stopped it (False:
    it ended on its own meanwhile, and its owner recorded how)."""
    details = {"id": record.id, "pid": record.pid}
    if not force:
        raise running_refusal(record)
    try:
        kill = importlib.import_module(KILL_MODULE)
    except ModuleNotFoundError:
        raise SafetyBlockError(N_("session '{id}' is running (PID {pid}) and this gz-ia cannot "
                                  "stop it; stop the agent first"),
                               id=record.id, pid=record.pid,
                               details=details) from None

    grace_s = int(load_config().get("kill_grace_ms")) / 1000.0
    try:
        killed = kill.kill_session(store, record.id, grace_s)
    except ConflictError:
        final = store.load(record.id)
        if final.is_running:
            raise
        return final, None, False
    return store.load(record.id), killed.target, True


def running_refusal(record: SessionRecord) -> SafetyBlockError:
    """Delete without ``--force`` of a session that runs."""
    return SafetyBlockError(N_("session '{id}' is running (PID {pid}); stop it first or use "
                               "--force"),
                            id=record.id, pid=record.pid,
                            hint_key=N_("gz-ia session delete {id} --force"),
                            details={"id": record.id, "pid": record.pid})


def _unmerged_refusal(project: Project, session_id: str, work: UnmergedWork) -> SafetyBlockError:
    if work.unreadable:
        worktree = str(worktree_for(project, session_id))
        return SafetyBlockError(
            NN_("session '{id}' has a worktree git cannot read ({worktree}): its {count} file "
                "cannot be checked for unmerged work; look at it, or delete with --force",
                "session '{id}' has a worktree git cannot read ({worktree}): its {count} files "
                "cannot be checked for unmerged work; look at them, or delete with --force"),
            id=session_id, worktree=worktree,
            count=len(work.files), hint_key=N_("gz-ia session delete {id} --force"),
            details={"id": session_id, "worktree": worktree, "files": work.files,
                     "unmerged_commits": work.commits})
    return SafetyBlockError(
        N_("session '{id}' has work that was never merged ({what}); merge it with 'gz-ia session "
           "merge {id}' or delete with --force"),
        id=session_id, what=work.describe(),
        hint_key=N_("gz-ia session delete {id} --force"),
        details={"id": session_id, "unmerged_commits": work.commits,
                 "uncommitted_files": work.files},
    )


def _remove_workspace(project: Project, record: SessionRecord, result: DeleteResult) -> None:
    shutil.rmtree(_injected_dir(project, record.id), ignore_errors=True)
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
