"""``session merge`` / ``get``: bring a session's branch into the base repository.

Order matters, so that a refusal never leaves anything half done:

1. refuse direct-mode sessions, running sessions, and a base with local changes;
2. commit the worktree's uncommitted work on ``harness/<id>`` (``harness(<id>): session
   changes``; injected files under ``.harness-session/`` stay out: the exclude entry is
   checked again first);
3. ask ``git merge-tree --write-tree`` whether the merge would conflict: a conflict is
   reported with its files before anything touches the base working tree;
4. merge (``--squash`` / ``--no-commit`` as in the original) into the checked-out branch;
5. record ``merged_at`` and ``merged_commit`` (not with ``--no-commit``: nothing was
   committed yet, so the session still counts as unmerged).

When git knows no user identity, commits are made as ``gz-ia <gz-ia@localhost>`` through
``-c`` for that command only; no configuration is written.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia import proc
from gzia.contract import ConflictError, LockedError, NotFoundError, SafetyBlockError
from gzia.sessions.git import (
    changed_paths,
    commit_with_fallback_identity,
    git_failure,
    git_ok,
    is_ancestor,
    private_index,
    rev_parse,
    run_git,
)
from gzia.sessions.project import HARNESS_DIR, Project
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import (
    INJECTED_DIR,
    branch_exists,
    branch_for,
    current_branch,
    ensure_excluded,
    worktree_for,
)

HARNESS_PATHS = (HARNESS_DIR, INJECTED_DIR)
"""gz-ia's own directories: what is under them is never the user's uncommitted work."""


@dataclass
class MergeResult:
    session_id: str
    branch: str
    into: str | None
    squash: bool
    no_commit: bool
    already_up_to_date: bool = False
    files: list[str] = field(default_factory=list)
    safety_commit: str | None = None
    head: str | None = None
    record: SessionRecord | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.session_id, "branch": self.branch, "into": self.into,
            "squash": self.squash, "no_commit": self.no_commit,
            "already_up_to_date": self.already_up_to_date, "files": self.files,
            "safety_commit": self.safety_commit, "head": self.head,
            "session": self.record.to_json() if self.record else None,
        }


MERGE_LOCK_TIMEOUT = 10.0


def merge_session(
    store: SessionStore, record: SessionRecord, *, squash: bool = False, no_commit: bool = False
) -> MergeResult:
    with _base_lock(store.project):
        return _merge_session(store, record, squash=squash, no_commit=no_commit)


@contextlib.contextmanager
def _base_lock(project: Project) -> Iterator[None]:
    """One merge at a time into a base: the undo of a merge that failed (on git's
    ``index.lock``, say) must never abort or reset another merge's work in progress."""
    path = project.harness_dir / "merge.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + MERGE_LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    root = str(project.root)
                    raise LockedError("sessions.merge_locked", root=root,
                                      details={"root": root}) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)  # releases the lock


def _merge_session(
    store: SessionStore, record: SessionRecord, *, squash: bool, no_commit: bool
) -> MergeResult:
    project = store.project
    branch = _check_mergeable(project, record)
    result = MergeResult(record.id, branch, current_branch(project.root), squash, no_commit)
    ensure_excluded(project)  # injected files stay out of every "git add -A" below
    _refuse_unsettled_worktree(project, record.id, branch)
    worktree = _dirty_worktree(project, record.id)
    # Check a snapshot of the worktree first, so a refusal leaves even its HEAD alone.
    tip = _snapshot(worktree) if worktree else branch
    _refuse_conflicts(project, record.id, branch, tip)
    _refuse_injected_files(project, record.id, branch, tip, squash=squash)
    _refuse_overwriting_ignored(project, record.id, tip)
    if worktree is not None:
        result.safety_commit = _commit_worktree_changes(worktree, record.id)
    result.files = _files_to_integrate(project.root, branch)
    if not result.files or is_ancestor(project.root, branch, "HEAD"):
        result.already_up_to_date = True
        result.record = record
        return result
    _merge(project.root, record.id, branch, squash=squash, no_commit=no_commit)
    result.head = rev_parse(project.root, "HEAD")
    result.record = _record_merge(store, record.id, branch) if not no_commit else record
    return result


def _check_mergeable(project: Project, record: SessionRecord) -> str:
    if not record.is_isolated or not project.is_git:
        raise NotFoundError("sessions.merge_direct", id=record.id, details={"id": record.id})
    if record.is_running:
        raise LockedError("sessions.merge_running", id=record.id, pid=record.pid,
                          details={"id": record.id, "pid": record.pid})
    branch = branch_for(record.id)
    if not branch_exists(project.root, branch):
        raise NotFoundError("sessions.merge_no_branch", id=record.id, branch=branch,
                            details={"id": record.id, "branch": branch})
    _refuse_operation_in_progress(project)
    dirty = changed_paths(project.root, ignore_dirs=HARNESS_PATHS)
    if dirty:
        root = str(project.root)
        raise SafetyBlockError("sessions.merge_base_dirty", root=root,
                               details={"root": root, "files": dirty})
    return branch


_IN_PROGRESS = {"MERGE_HEAD": "merge", "CHERRY_PICK_HEAD": "cherry-pick",
                "REVERT_HEAD": "revert", "rebase-merge": "rebase", "rebase-apply": "rebase"}


def _refuse_operation_in_progress(project: Project) -> None:
    """A merge, rebase... the user has not finished is theirs: never continue or abort it."""
    operation = _operation_in_progress(project.git_common_dir)
    if operation is not None:
        root = str(project.root)
        raise SafetyBlockError("sessions.merge_in_progress", root=root, operation=operation,
                               details={"root": root, "operation": operation})


def _operation_in_progress(git_dir: Path | None) -> str | None:
    for name, operation in _IN_PROGRESS.items():
        if git_dir is not None and (git_dir / name).exists():
            return operation
    return None


def _refuse_unsettled_worktree(project: Project, session_id: str, branch: str) -> None:
    """The worktree must have its own branch checked out, with no merge or rebase of the
    user's half done, or the safety commit would land on a branch of the user's (and the
    merge would leave that work out) or conclude the user's operation."""
    worktree = worktree_for(project, session_id)
    if not (worktree / ".git").is_file():
        return
    git_dir = git_ok(["rev-parse", "--absolute-git-dir"], worktree).strip()
    operation = _operation_in_progress(Path(git_dir))
    if operation is None and git_ok(["ls-files", "-u", "-z"], worktree):
        operation = "merge"  # unresolved conflicts without MERGE_HEAD (a stash pop, say)
    if operation is not None:  # the safety commit would conclude it, conflict markers and all
        raise SafetyBlockError(
            "sessions.merge_worktree_in_progress", id=session_id, root=str(worktree),
            operation=operation,
            details={"id": session_id, "worktree": str(worktree), "operation": operation})
    checked_out = current_branch(worktree) or (rev_parse(worktree, "HEAD") or "HEAD")[:12]
    if checked_out != branch:
        raise SafetyBlockError(
            "sessions.merge_worktree_moved", id=session_id, branch=branch,
            checked_out=checked_out, worktree=str(worktree),
            hint_key="sessions.merge_worktree_moved_hint",
            details={"id": session_id, "branch": branch, "checked_out": checked_out,
                     "worktree": str(worktree)},
        )


def _dirty_worktree(project: Project, session_id: str) -> Path | None:
    worktree = worktree_for(project, session_id)
    if not (worktree / ".git").is_file():
        return None
    return worktree if changed_paths(worktree, ignore_dirs=HARNESS_PATHS) else None


def _snapshot(worktree: Path) -> str:
    """A commit of the worktree as it is, made through a private index (nothing moves)."""
    with tempfile.TemporaryDirectory(prefix="gzia-merge-") as scratch:
        env = private_index(worktree, Path(scratch))
        git_ok(["add", "-A"], worktree, env=env)
        tree = git_ok(["write-tree"], worktree, env=env).strip()
    done = commit_with_fallback_identity(["commit-tree", tree, "-p", "HEAD", "-m", "snapshot"],
                                         worktree)
    if not done.ok:
        raise git_failure(done)
    return done.stdout.strip()


def _commit_worktree_changes(worktree: Path, session_id: str) -> str | None:
    git_ok(["add", "-A"], worktree)
    done = commit_with_fallback_identity(
        ["commit", "-q", "-m", f"harness({session_id}): session changes"], worktree
    )
    if not done.ok:
        raise git_failure(done)
    return rev_parse(worktree, "HEAD")


def _refuse_conflicts(project: Project, session_id: str, branch: str, tip: str) -> None:
    done = run_git(["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", "HEAD",
                    tip],
                   project.root)
    if done.returncode == 0:
        return
    if done.returncode != 1:
        raise git_failure(done)
    files = _conflicted_files(done)
    # Detached: the commit, since "HEAD" in the worktree would be the worktree's own.
    base = current_branch(project.root) or rev_parse(project.root, "HEAD") or "HEAD"
    worktree = str(worktree_for(project, session_id))
    raise ConflictError(
        "sessions.merge_conflict", id=session_id, count=len(files), files=", ".join(files),
        base=base, hint_key="sessions.merge_conflict_hint",
        details={"id": session_id, "files": files, "branch": branch, "worktree": worktree},
    )


_OWN_PATHSPECS = (f":(top){HARNESS_DIR}", f":(top){INJECTED_DIR}")


def _refuse_injected_files(project: Project, session_id: str, branch: str, tip: str, *,
                           squash: bool) -> None:
    """Refuse when the session's commits carry ``.harness-session/`` or ``.harness/`` files.

    The exclude entry keeps ``git add -A`` away from them, but an agent can still force-add
    an injected MCP configuration (with its token) or write into gz-ia's own store. A
    squash brings only the final tree; any other merge brings every commit's history.
    """
    if squash:
        args = ["diff", "--name-only", "-z", f"HEAD...{tip}", "--", *_OWN_PATHSPECS]
    else:
        args = ["log", "--format=", "--name-only", "-z", f"HEAD..{tip}", "--", *_OWN_PATHSPECS]
    names = git_ok(args, project.root).split("\0")
    files = sorted({name.strip("\n") for name in names if name.strip("\n")})
    if files:
        raise SafetyBlockError(
            "sessions.merge_injected", id=session_id, files=", ".join(files), branch=branch,
            hint_key="sessions.merge_injected_hint",
            details={"id": session_id, "branch": branch, "files": files},
        )


def _refuse_overwriting_ignored(project: Project, session_id: str, tip: str) -> None:
    """Refuse when the merge would create files the base has on disk but ignores.

    git treats ignored files as expendable and replaces them without a word: a session
    that commits its own ``.env`` would wipe the user's. (Untracked files that are not
    ignored already made the base count as dirty.)
    """
    added = git_ok(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=A",
                    f"HEAD...{tip}"], project.root).split("\0")
    on_disk = [name for name in added if name and os.path.lexists(project.root / name)]
    if not on_disk:
        return
    tracked = git_ok(["ls-files", "-z", "--", *on_disk], project.root,
                     env={"GIT_LITERAL_PATHSPECS": "1"}).split("\0")
    files = sorted(set(on_disk) - set(tracked))
    if files:
        root = str(project.root)
        raise SafetyBlockError(
            "sessions.merge_overwrites_ignored", id=session_id, root=root,
            files=", ".join(files), hint_key="sessions.merge_overwrites_ignored_hint",
            details={"id": session_id, "root": root, "files": files},
        )


def _conflicted_files(done: proc.Completed) -> list[str]:
    """``merge-tree -z --name-only``: the tree id, then conflicted paths, NUL-terminated."""
    lines = done.stdout.split("\0")[1:]
    files: list[str] = []
    for line in lines:
        if not line:
            break
        if line not in files:
            files.append(line)
    return files


def _files_to_integrate(root: Path, branch: str) -> list[str]:
    names = git_ok(["diff", "--name-only", "-z", f"HEAD...{branch}"], root)
    return [n for n in names.split("\0") if n]


def _merge(root: Path, session_id: str, branch: str, *, squash: bool, no_commit: bool) -> None:
    if squash:
        args = ["merge", "--squash", branch]
    elif no_commit:
        args = ["merge", "--no-ff", "--no-commit", branch]
    else:
        args = ["merge", "--no-edit", "-m", f"harness({session_id}): merge session changes", branch]
    done = commit_with_fallback_identity(args, root)
    if not done.ok:
        _undo_failed_merge(root, squash=squash)
        raise git_failure(done)
    if squash and not no_commit and not run_git(["diff", "--cached", "--quiet"], root).ok:
        message = f"harness({session_id}): merge session changes (squash)"
        committed = commit_with_fallback_identity(["commit", "-q", "-m", message], root)
        if not committed.ok:  # a hook refused it: take the staged squash back out
            _undo_failed_merge(root, squash=True)
            raise git_failure(committed)


def _undo_failed_merge(root: Path, *, squash: bool) -> None:
    """Put the base back after a merge that failed past the pre-check (a race, a hook).

    The base was clean and had no operation in progress, so what is there now is ours.
    """
    if squash:
        run_git(["reset", "--merge"], root)
    elif run_git(["rev-parse", "-q", "--verify", "MERGE_HEAD"], root).ok:
        run_git(["merge", "--abort"], root)


def _record_merge(store: SessionStore, session_id: str, branch: str) -> SessionRecord:
    tip = rev_parse(store.project.root, branch)

    def mark(record: SessionRecord) -> None:
        record.merged_at = now_rfc3339()
        record.merged_commit = tip

    return store.update(session_id, mark)
