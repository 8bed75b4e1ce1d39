"""``session prune``: remove what belongs to no session record; report the reverse.

Removed: worktrees on ``harness/<id>`` branches (git forgets those whose directory is
gone; other worktrees of the user's are never touched), ``harness/<id>`` branches (each
reported with its tip commit, so it can be brought back, and whether that commit is on
any other branch), directories ``.harness/worktrees/<id>``, event files
``<id>.events.jsonl`` and lock files ``<id>.lock`` nobody holds, whose ``<id>`` has no
record file. A record file that no longer parses still counts as a record, so a damaged
record never costs its worktree, and a worktree created in the last minute is left alone
with its events (its session may be writing its record right now), as is any branch
still checked out somewhere: both are reported as kept, with the reason. An orphaned
worktree is kept, with its branch, events and lock file, and reported when ``git
worktree lock`` locked it (always: ``git worktree unlock`` first), when it holds
uncommitted work (unless ``force``; what ``force`` discards is reported), or when git
cannot tell what it holds (unless ``force``).
Records whose worktree has disappeared are reported, not deleted (``session delete``
does that). Only names of the session-id shape are touched: a user's own
``harness/feature`` branch is not gz-ia's to remove.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from gzia.contract import IOFailure
from gzia.sessions.git import commits_on_no_branch, rev_parse, run_git
from gzia.sessions.ids import BRANCH_PREFIX, is_session_id
from gzia.sessions.project import Project
from gzia.sessions.record import Status
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import forget_missing_worktree
from gzia.sessions.worktree_work import files_in, uncommitted_files

_EVENTS_SUFFIX = ".events.jsonl"
_LOCK_SUFFIX = ".lock"
MIN_AGE_S = 60.0
"""Worktree directories younger than this are left alone: a session may be starting."""


@dataclass(frozen=True)
class BranchTip:
    """Where a removed branch pointed: ``git branch <branch> <commit>`` brings it back."""

    branch: str
    commit: str
    short: str
    on_other_branch: bool
    """False: no branch that remains holds the commit; only its SHA leads back to it."""

    def to_json(self) -> dict[str, Any]:
        return {"branch": self.branch, "commit": self.commit,
                "on_other_branch": self.on_other_branch,
                "recover": f"git branch {self.branch} {self.commit}"}


class _Worktree(NamedTuple):
    path: Path
    branch: str | None
    locked: bool


@dataclass(frozen=True)
class KeptWorktree:
    """An orphaned worktree prune leaves alone, and why."""

    session_id: str
    reason: str
    """``locked``, ``uncommitted`` (``files`` lists them), ``unmerged_head`` (commits on a
    detached HEAD that no branch has), ``unreadable`` (git cannot tell what it holds),
    ``symlink`` (a symbolic link gz-ia did not create: never followed, never removed) or
    ``young`` (created less than :data:`MIN_AGE_S` ago: its session may be starting;
    ``files`` lists what it holds uncommitted)."""
    path: Path
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session_id, "reason": self.reason, "path": str(self.path),
                "files": self.files}


@dataclass(frozen=True)
class KeptBranch:
    """An orphaned ``harness/<id>`` branch prune leaves alone: it is checked out in a
    worktree that is not a kept session worktree (the user's main one, say)."""

    branch: str
    path: Path
    reason: str = "checked_out"

    def to_json(self) -> dict[str, Any]:
        return {"branch": self.branch, "reason": self.reason, "path": str(self.path)}


@dataclass(frozen=True)
class DiscardedWork:
    """Uncommitted files of an orphaned worktree removed with ``force``."""

    session_id: str
    files: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session_id, "files": self.files}


@dataclass
class PruneReport:
    dry_run: bool
    force: bool = False
    removed_worktrees: list[str] = field(default_factory=list)
    discarded_files: list[DiscardedWork] = field(default_factory=list)
    kept_worktrees: list[KeptWorktree] = field(default_factory=list)
    kept_branches: list[KeptBranch] = field(default_factory=list)
    removed_branches: list[str] = field(default_factory=list)
    removed_dirs: list[str] = field(default_factory=list)
    removed_events: list[str] = field(default_factory=list)
    removed_locks: list[str] = field(default_factory=list)
    missing_worktrees: list[str] = field(default_factory=list)
    branch_tips: list[BranchTip] = field(default_factory=list)
    """One per removed branch, in the same order."""

    @property
    def removed_anything(self) -> bool:
        return bool(self.removed_worktrees or self.removed_branches or self.removed_dirs
                    or self.removed_events or self.removed_locks)

    def to_json(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run, "force": self.force,
                "removed_worktrees": self.removed_worktrees,
                "discarded_files": [work.to_json() for work in self.discarded_files],
                "kept_worktrees": [kept.to_json() for kept in self.kept_worktrees],
                "kept_branches": [kept.to_json() for kept in self.kept_branches],
                "removed_branches": self.removed_branches,
                "branch_tips": [tip.to_json() for tip in self.branch_tips],
                "removed_dirs": self.removed_dirs, "removed_events": self.removed_events,
                "removed_locks": self.removed_locks,
                "missing_worktrees": self.missing_worktrees}


def prune(store: SessionStore, *, dry_run: bool = False, force: bool = False) -> PruneReport:
    project, report = store.project, PruneReport(dry_run, force)
    known = _recorded_ids(store)
    worktrees: list[_Worktree] = []
    if project.is_git:
        worktrees = _forget_missing(project, _worktrees(project), dry_run=dry_run)
        _prune_worktrees(project, worktrees, known, report)
        in_use = {tree.branch: tree.path for tree in worktrees
                  if tree.branch and tree.path.name not in report.removed_worktrees}
        _prune_branches(project, known, in_use, report)
    _prune_dirs(project, known, {tree.path for tree in worktrees}, report)
    known |= {kept.session_id for kept in report.kept_worktrees}  # their events and lock stay
    _prune_events(store, known, report)
    _prune_locks(store, known, report)
    report.missing_worktrees = _records_without_worktree(store)
    return report


def _recorded_ids(store: SessionStore) -> set[str]:
    try:
        names = os.listdir(store.dir)  # noqa: PTH208 - names only
    except FileNotFoundError:
        return set()
    return {n[:-5] for n in names if n.endswith(".json") and is_session_id(n[:-5])}


def _orphan_id(name: str, known: set[str]) -> str | None:
    return name if is_session_id(name) and name not in known else None


def _worktrees(project: Project) -> list[_Worktree]:
    done = run_git(["worktree", "list", "--porcelain"], project.root)
    entries: list[_Worktree] = []
    for block in done.stdout.split("\n\n") if done.ok else []:
        fields = dict(line.partition(" ")[::2] for line in block.splitlines() if line)
        if "worktree" in fields:
            branch = fields.get("branch", "").removeprefix("refs/heads/") or None
            entries.append(_Worktree(Path(fields["worktree"]), branch, "locked" in fields))
    return entries  # the first is the main worktree


def _forget_missing(project: Project, worktrees: list[_Worktree], *,
                    dry_run: bool) -> list[_Worktree]:
    """Drop session worktrees whose directory is gone (git forgets them unless dry run).

    Not ``git worktree prune``: it would forget every missing worktree, a user's own on
    an unmounted disk included. A locked one stays: locking is how a user says its
    directory may be away (git would not forget it either).
    """
    kept = []
    for tree in worktrees:
        if tree.path.parent == project.worktrees_dir and not os.path.lexists(tree.path) \
                and not tree.locked:
            if not dry_run:
                forget_missing_worktree(project, tree.path)
        else:
            kept.append(tree)
    return kept


def _is_young(path: Path) -> bool:
    """Just created: maybe a session whose record is being written right now."""
    try:
        return time.time() - path.stat().st_mtime < MIN_AGE_S
    except FileNotFoundError:
        return False


def _prune_worktrees(project: Project, worktrees: list[_Worktree], known: set[str],
                     report: PruneReport) -> None:
    for tree in worktrees:
        if tree.path.parent != project.worktrees_dir:
            continue  # the user's own worktree
        owner = tree.path.name
        if tree.branch and tree.branch.startswith(BRANCH_PREFIX):
            owner = tree.branch.removeprefix(BRANCH_PREFIX)
        session_id = _orphan_id(owner, known) if _orphan_id(tree.path.name, known) else None
        if session_id is not None and _is_young(tree.path):  # maybe a session being set up
            report.kept_worktrees.append(_kept_young(session_id, tree.path))
        elif session_id is not None:
            _prune_worktree(project, tree, session_id, report)


def _kept_young(session_id: str, path: Path) -> KeptWorktree:
    return KeptWorktree(session_id, "young", path, uncommitted_files(path) or [])


def _prune_worktree(project: Project, tree: _Worktree, session_id: str,
                    report: PruneReport) -> None:
    kept = _why_kept(project, tree, session_id, force=report.force)
    if kept is not None:
        report.kept_worktrees.append(kept)
        return
    report.removed_worktrees.append(session_id)
    _note_discarded(report, session_id, tree.path)
    if not report.dry_run:
        run_git(["worktree", "remove", "--force", str(tree.path)], project.root)
        shutil.rmtree(tree.path, ignore_errors=True)
        forget_missing_worktree(project, tree.path)  # if 'worktree remove' could not


def _why_kept(project: Project, tree: _Worktree, session_id: str, *,
              force: bool) -> KeptWorktree | None:
    always = _kept_even_if_forced(tree)
    if always is not None:
        return KeptWorktree(session_id, always, tree.path)
    if force:
        return None
    files = uncommitted_files(tree.path)
    if files is None:
        return KeptWorktree(session_id, "unreadable", tree.path)
    if files:
        return KeptWorktree(session_id, "uncommitted", tree.path, files)
    if _head_holds_commits_no_branch_has(project, tree.path):
        return KeptWorktree(session_id, "unmerged_head", tree.path)
    return None


def _kept_even_if_forced(tree: _Worktree) -> str | None:
    """A symbolic link gz-ia did not create; a worktree its user locked."""
    if tree.path.is_symlink():
        return "symlink"
    return "locked" if tree.locked else None


def _head_holds_commits_no_branch_has(project: Project, path: Path) -> bool:
    """Commits made on a detached HEAD: removing the worktree drops the only reflog
    that knows them (``delete`` counts them as unmerged work too)."""
    head = rev_parse(path, "HEAD") if (path / ".git").is_file() else None
    try:
        return head is not None and commits_on_no_branch(project.root, [head]) > 0
    except IOFailure:
        return True  # unknown is not "nothing to lose"


def _note_discarded(report: PruneReport, session_id: str, path: Path) -> None:
    """With ``force``: the files removing ``path`` discards (every file it holds when
    git cannot read it)."""
    if not report.force:
        return
    files = uncommitted_files(path)
    files = files_in(path) if files is None else files
    if files:
        report.discarded_files.append(DiscardedWork(session_id, files))


def _prune_branches(project: Project, known: set[str], in_use: dict[str, Path],
                    report: PruneReport) -> None:
    _report_checked_out(project, known, in_use, report)
    orphans = [(branch, commit, short) for branch, commit, short in _session_branches(project)
               if branch not in in_use
               and _orphan_id(branch.removeprefix(BRANCH_PREFIX), known) is not None]
    doomed = {branch for branch, _, _ in orphans}
    for branch, commit, short in orphans:
        tip = BranchTip(branch, commit, short, _on_other_branch(project, commit, doomed))
        if report.dry_run or run_git(["branch", "-D", branch], project.root).ok:
            report.removed_branches.append(branch)
            report.branch_tips.append(tip)


def _report_checked_out(project: Project, known: set[str], in_use: dict[str, Path],
                        report: PruneReport) -> None:
    """Orphaned branches kept because a worktree has them checked out, unless that is a
    kept session worktree (reported already, with its reason)."""
    kept_paths = {kept.path for kept in report.kept_worktrees}
    for branch, _, _ in _session_branches(project):
        path = in_use.get(branch)
        orphan = _orphan_id(branch.removeprefix(BRANCH_PREFIX), known)
        if path is not None and orphan is not None and path not in kept_paths:
            report.kept_branches.append(KeptBranch(branch, path))


def _session_branches(project: Project) -> list[tuple[str, str, str]]:
    """``(branch, commit, abbreviated commit)`` of every ``harness/*`` branch."""
    done = run_git(["for-each-ref", "--format=%(refname) %(objectname) %(objectname:short)",
                    f"refs/heads/{BRANCH_PREFIX}"], project.root)
    branches = []
    for line in done.stdout.splitlines() if done.ok else []:
        refname, commit, short = line.split(" ")
        branches.append((refname.removeprefix("refs/heads/"), commit, short))
    return branches


def _on_other_branch(project: Project, commit: str, doomed: set[str]) -> bool:
    """Whether a branch that stays holds ``commit`` (when git cannot tell: no)."""
    done = run_git(["for-each-ref", "--contains", commit, "--format=%(refname)", "refs/heads/"],
                   project.root)
    holders = {ref.removeprefix("refs/heads/") for ref in done.stdout.split()} if done.ok else set()
    return bool(holders - doomed)


def _prune_dirs(project: Project, known: set[str], registered: set[Path],
                report: PruneReport) -> None:
    try:
        names = sorted(os.listdir(project.worktrees_dir))  # noqa: PTH208 - names only
    except FileNotFoundError:
        return
    for name in names:
        path = project.worktrees_dir / name
        orphan = _orphan_id(name, known)
        if orphan is None or orphan in report.removed_worktrees or path in registered:
            continue  # recorded, or a git worktree pruned or kept above
        if path.is_symlink():
            report.kept_worktrees.append(KeptWorktree(orphan, "symlink", path))
            continue
        if not path.exists():
            continue  # gone meanwhile
        if _is_young(path):  # maybe being set up
            report.kept_worktrees.append(KeptWorktree(name, "young", path))
            continue
        if not report.force and uncommitted_files(path) is None:
            report.kept_worktrees.append(KeptWorktree(orphan, "unreadable", path))
            continue
        report.removed_dirs.append(name)
        _note_discarded(report, orphan, path)
        if not report.dry_run:
            shutil.rmtree(path, ignore_errors=True)
    if not report.dry_run and not any(project.worktrees_dir.iterdir()):
        project.worktrees_dir.rmdir()


def _prune_events(store: SessionStore, known: set[str], report: PruneReport) -> None:
    for name in _names(store.dir, _EVENTS_SUFFIX):
        session_id = _orphan_id(name.removesuffix(_EVENTS_SUFFIX), known)
        if session_id is None or _is_young(store.project.worktrees_dir / session_id) \
                or (store.dir / name).is_symlink():
            continue  # recorded, a session being set up (its worktree is kept too), a link
        report.removed_events.append(name)
        if not report.dry_run:
            (store.dir / name).unlink(missing_ok=True)


def _prune_locks(store: SessionStore, known: set[str], report: PruneReport) -> None:
    for name in _names(store.dir, _LOCK_SUFFIX):
        session_id = _orphan_id(name.removesuffix(_LOCK_SUFFIX), known)
        if session_id is None or _is_young(store.project.worktrees_dir / session_id):
            continue
        if store.drop_orphan_lock(session_id, dry_run=report.dry_run):
            report.removed_locks.append(name)


def _names(directory: Path, suffix: str) -> list[str]:
    try:
        names = os.listdir(directory)  # noqa: PTH208 - names only
    except FileNotFoundError:
        return []
    return sorted(name for name in names if name.endswith(suffix))


def _records_without_worktree(store: SessionStore) -> list[str]:
    return sorted(
        record.id for record in store.list().records
        if record.is_isolated and record.status != Status.PAUSED  # freed on purpose
        and not (store.project.worktrees_dir / record.id).is_dir()
    )
