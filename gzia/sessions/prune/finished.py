"""``session prune --finished``: remove finished sessions that lose nothing when removed.

A finished session (any status but ``running``) whose work is merged, or which changed
nothing, is removed exactly as ``session delete`` removes it: worktree, branch, record,
events, log. The test is ``delete``'s own (:func:`gzia.sessions.delete.unmerged_work`):
commits no other branch holds whose changes the base does not have, or uncommitted
files. A session with such work is kept and reported, unless ``force``, which removes it
and reports what was discarded. Running sessions are kept (and reported). Every removed
branch is reported with its tip, so ``git branch harness/<id> <commit>`` brings it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gzia.sessions.delete import UnmergedWork, delete_session, unmerged_work
from gzia.sessions.git import rev_parse
from gzia.sessions.reconcile import list_sessions, reconcile
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import branch_for


@dataclass(frozen=True)
class RemovedSession:
    session_id: str
    status: str
    branch: str | None
    """``harness/<id>`` when it existed, with its tip in ``commit``."""
    commit: str | None
    discarded: UnmergedWork

    def to_json(self) -> dict[str, Any]:
        recover = f"git branch {self.branch} {self.commit}" if self.branch else None
        return {"id": self.session_id, "status": self.status, "branch": self.branch,
                "commit": self.commit, "recover": recover,
                "discarded_commits": self.discarded.commits,
                "discarded_files": self.discarded.files}


@dataclass(frozen=True)
class KeptSession:
    session_id: str
    reason: str
    """``running``, or ``unmerged`` (``work`` says what would be lost)."""
    work: UnmergedWork = field(default_factory=UnmergedWork)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session_id, "reason": self.reason,
                "unmerged_commits": self.work.commits, "uncommitted_files": self.work.files}


@dataclass
class FinishedReport:
    removed: list[RemovedSession] = field(default_factory=list)
    kept: list[KeptSession] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"removed_sessions": [item.to_json() for item in self.removed],
                "kept_sessions": [item.to_json() for item in self.kept]}


def prune_finished(store: SessionStore, *, dry_run: bool, force: bool) -> FinishedReport:
    report = FinishedReport()
    records = sorted(list_sessions(store).records, key=lambda r: (r.started_at, r.id))
    for record in records:  # oldest first
        _prune_one(store, record, report, dry_run=dry_run, force=force)
    return report


def _prune_one(store: SessionStore, record: SessionRecord, report: FinishedReport, *,
               dry_run: bool, force: bool) -> None:
    record = reconcile(store, record)
    if record.is_running:  # never stopped by a cleanup, --force or not
        report.kept.append(KeptSession(record.id, "running"))
        return
    work = unmerged_work(store.project, record)
    if work and not force:
        report.kept.append(KeptSession(record.id, "unmerged", work))
        return
    branch = branch_for(record.id)
    tip = rev_parse(store.project.root, branch) if store.project.is_git else None
    if not dry_run:
        delete_session(store, record, force=bool(work))
    report.removed.append(RemovedSession(record.id, record.status,
                                         branch if tip else None, tip, work))
