"""``session merge`` / ``get``: bring a session's branch into the base repository.

The base is the work tree the command runs in when that is a linked worktree of the
user's, else the main worktree (``Project.base``): every check, the merge and its undo
work there; the store, the lock and the session's worktree stay the main worktree's.

Order matters, so that a refusal never leaves anything half done:

1. refuse direct-mode sessions, running sessions, a base with local changes or without a
   branch checked out (detached HEAD: nothing would keep the merged work);
2. check a snapshot of the worktree (a commit made through a private index: nothing
   moves) with ``git merge-tree --write-tree``: a conflict is reported with its files
   before anything touches the base or the worktree; so are files gz-ia owns (its
   directories, and every path a profile projected into the session, however it got
   committed) and ignored files of the base the merge would overwrite;
3. commit the worktree's uncommitted work on ``harness/<id>`` (its subject names the
   session as the merge's does: :func:`gzia.sessions.naming.commit_subject`; injected
   files under ``.harness-session/`` stay out: the exclude entry is checked again first);
4. merge (``--squash`` / ``--no-commit`` as in the original) into the checked-out branch,
   unless the base already holds the work (its tree would not change: "up to date"); a
   base that did not move fast-forwards (no merge commit), except with ``-m``, whose
   message is always a commit's (``--no-ff``; staged in ``MERGE_MSG``/``SQUASH_MSG``
   with ``--no-commit``);
5. record ``merged_at`` and ``merged_commit`` (not with ``--no-commit``: nothing was
   committed yet, so the session still counts as unmerged).

From step 3 to the record, a hook that refuses a commit, a git failure, or Ctrl+C/SIGTERM
puts the base and the worktree back as they were (:mod:`gzia.sessions.merge.rollback`),
then reports (a stop still ends with 130/143). Stop signals that arrive while the record
is written are held until it is: a recorded merge is never undone.

When git knows no user identity, commits are made as ``gz-ia <gz-ia@localhost>`` through
``-c`` for that command only; no configuration is written.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import (
    GzError,
    InterruptError,
    IOFailure,
    LockedError,
    TerminatedError,
    TerminationRequested,
    stop_request,
    stopped_by_signal,
)
from gzia.filelock import hold_lock
from gzia.i18n import N_
from gzia.sessions.git import (
    commit_with_fallback_identity,
    git_failure,
    git_ok,
    holds_work_of,
    identity_missing,
    rev_parse,
    run_git,
)
from gzia.sessions.merge.checks import (
    check_mergeable,
    dirty_worktree,
    refuse_conflicts,
    refuse_injected_files,
    refuse_overwriting_ignored,
    refuse_unsettled_worktree,
    snapshot,
)
from gzia.sessions.merge.commit import (
    COMMIT_HOOKS,
    commit_refused,
    merge_branch,
    merge_message,
    squash_branch,
)
from gzia.sessions.merge.rollback import MergeRollback
from gzia.sessions.naming import commit_subject
from gzia.sessions.project import Project
from gzia.sessions.projection import projected_paths, unproject
from gzia.sessions.publish_trail import log_merge
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.sessions.symlinks import refuse_symlink
from gzia.sessions.workspace import ensure_excluded, worktree_for
from gzia.supervisor.signals import stop_signals_held


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
    message: str = ""
    """The merge commit's message (``-m``, else :func:`.commit.merge_message`'s)."""
    message_given: bool = False
    """``-m``: the message must reach a commit, so the merge never fast-forwards."""
    fast_forward: bool = False
    """The base had not moved: its branch now points at the session's tip, no merge
    commit was made (the session's own commits are the log)."""
    fallback_identity: bool = False
    """git knows no identity here: commits were made as gz-ia <gz-ia@localhost>."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.session_id, "branch": self.branch, "into": self.into,
            "squash": self.squash, "no_commit": self.no_commit,
            "already_up_to_date": self.already_up_to_date, "files": self.files,
            "safety_commit": self.safety_commit, "head": self.head,
            "fast_forward": self.fast_forward,
            "session": self.record.to_json() if self.record else None,
        }


MERGE_LOCK_TIMEOUT = 10.0


def merge_session(
    store: SessionStore, record: SessionRecord, *, squash: bool = False, no_commit: bool = False,
    message: str | None = None,
) -> MergeResult:
    """``message``: the merge commit's (``-m``); by default it names the session."""
    text = merge_message(record, message, squash=squash)
    with _base_lock(store.project) as lock_fd:
        return _merge_session(store, record, squash=squash, no_commit=no_commit,
                              lock_fd=lock_fd, message=text, message_given=message is not None)


@contextlib.contextmanager
def _base_lock(project: Project) -> Iterator[int]:
    """One merge at a time into a base: the undo of a merge that failed (on git's
    ``index.lock``, say) must never abort or reset another merge's work in progress.
    The git command that changes the base holds it too, so a merge whose gz-ia was
    killed still excludes the next one until its git has finished."""
    path = project.harness_dir / "merge.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    refuse_symlink(path)
    root = str(project.root)
    fd = hold_lock(path, time.monotonic() + MERGE_LOCK_TIMEOUT, poll=0.02, locked=lambda: (
        LockedError(N_("another gz-ia session merge into {root} is in progress; try again"),
                    root=root, details={"root": root})))
    try:
        yield fd
    finally:
        os.close(fd)  # releases the lock (a git command given it keeps it until it ends)


def _merge_session(
    store: SessionStore, record: SessionRecord, *, squash: bool, no_commit: bool, lock_fd: int,
    message: str, message_given: bool,
) -> MergeResult:
    project = store.project
    branch, into = check_mergeable(project, record)
    result = MergeResult(record.id, branch, into, squash, no_commit, message=message,
                         message_given=message_given,
                         fallback_identity=identity_missing(project.base))
    ensure_excluded(project)  # injected files stay out of every "git add -A" below
    unproject(project, record.id, worktree_for(project, record.id))  # left by a killed gz-ia
    worktree, _ = checked_tip(project, record.id, branch, squash=squash)
    rollback = MergeRollback(record.id, project.base, into,
                             rev_parse(project.base, "HEAD") or "HEAD", branch, squash,
                             orig_head=rev_parse(project.base, "ORIG_HEAD"))
    try:
        late_stop = _integrate(store, record, result, rollback, worktree, lock_fd=lock_fd)
    except BaseException as exc:
        if rollback.recorded:  # the merge is in the record: it stays, whatever came after
            if isinstance(exc, KeyboardInterrupt):
                raise stopped_by_signal(exc, result.to_json()) from exc
            raise
        replacement = _after_undo(exc, rollback)
        if replacement is None:
            raise
        raise replacement from exc
    if late_stop is not None:  # the merge is recorded: done, but gz-ia was asked to stop
        raise stopped_by_signal(stop_request(late_stop), result.to_json())
    return result


def checked_tip(project: Project, session_id: str, branch: str, *,
                squash: bool) -> tuple[Path | None, str]:
    """Step 2: the worktree with uncommitted work (if any) and the commit to merge (a
    snapshot of that worktree, else the branch), once nothing would refuse it."""
    refuse_unsettled_worktree(project, session_id, branch)
    worktree = dirty_worktree(project, session_id)
    # Check a snapshot of the worktree first, so a refusal leaves even its HEAD alone.
    # (A projection still in place is left out: merge itself takes it out first.)
    tip = snapshot(worktree, projected_paths(project, session_id)) if worktree else branch
    refuse_conflicts(project, session_id, branch, tip, worktree=worktree)
    refuse_injected_files(project, session_id, branch, tip, squash=squash)
    refuse_overwriting_ignored(project, session_id, tip)
    return worktree, tip


@dataclass
class MergePreview:
    """What ``merge`` would do, found by its own checks: the files it would bring in."""

    session_id: str
    branch: str
    into: str | None
    files: list[str]
    already_up_to_date: bool


def preview_merge(store: SessionStore, record: SessionRecord, *,
                  squash: bool = False) -> MergePreview:
    """Steps 1 and 2 alone: raise what ``merge`` would refuse (a conflict names its files),
    else say which files it would bring in. Nothing in the base or the worktree changes
    (the snapshot is a commit no ref points to)."""
    project = store.project
    branch, into = check_mergeable(project, record)
    _, tip = checked_tip(project, record.id, branch, squash=squash)
    if _changes_nothing(project.base, tip):
        return MergePreview(record.id, branch, into, [], already_up_to_date=True)
    return MergePreview(record.id, branch, into, _files_to_integrate(project.base, tip), False)


def _integrate(store: SessionStore, record: SessionRecord, result: MergeResult,
               rollback: MergeRollback, worktree: Path | None, *,
               lock_fd: int) -> int | None:
    """Steps 3, 4 and 5; returns a stop signal held while the record was written."""
    root, branch = store.project.base, result.branch
    if worktree is not None:
        rollback.save_worktree(worktree)
        result.safety_commit = commit_worktree_changes(worktree, record)
    result.record = record
    if _changes_nothing(root, branch):  # recorded too, unless it already is
        result.already_up_to_date = True
        result.head = rev_parse(root, "HEAD")
        if result.no_commit or record.merged_commit == rev_parse(root, branch):
            return None
    else:
        result.files = _files_to_integrate(root, branch)
        _merge(store.project, record.id, branch, result, lock_fd=lock_fd)
        result.head = rev_parse(root, "HEAD")
        result.fast_forward = not result.no_commit and result.head == rev_parse(root, branch)
        if result.no_commit:
            return None

    with stop_signals_held() as held:
        result.record = _record_merge(store, record.id, branch)
        rollback.recorded = True
    log_merge(store, result.to_json())
    return held.late_stop


def _after_undo(exc: BaseException, rollback: MergeRollback) -> BaseException | None:
    """Put things back; the error to raise instead of ``exc`` (None: ``exc`` itself)."""
    restored = rollback.undo()
    details = {"id": rollback.session_id, "root": str(rollback.root),
               "head": rollback.base_head, "restored": restored,
               "problems": rollback.problems}
    params = {"id": rollback.session_id, "root": str(rollback.root),
              "head": rollback.base_head, "problems": "; ".join(rollback.problems)}
    hint = (None
            if restored else N_("look with git -C {root} status; git -C {root} reset --merge "
                                "{head} takes the base back to where it was before the merge"))
    if isinstance(exc, KeyboardInterrupt):
        stopped = TerminatedError if isinstance(exc, TerminationRequested) else InterruptError
        key = (N_("the merge of session '{id}' was stopped; {root} and the session's worktree are "
                  "back as they were")
               if restored else N_("the merge of session '{id}' was stopped, and gz-ia could not "
                                   "put everything back as it was: {problems}"))
        return stopped(key, hint_key=hint, details=details, **params)
    if restored:
        return None
    cause = _cause(exc)
    return IOFailure(N_("merging session '{id}' failed ({cause}), and gz-ia could not put "
                        "everything back as it was: {problems}"),
                     cause=cause, hint_key=hint,
                     details={**details, "cause": cause}, **params)


def _cause(exc: BaseException) -> str:
    """What failed, short: git's or the hook's own output when there is one (the error's
    message would promise that everything is back as it was)."""
    if isinstance(exc, GzError):
        return str(exc.details.get("output") or exc.message)
    return f"{type(exc).__name__}: {exc}"


def commit_worktree_changes(worktree: Path, record: SessionRecord) -> str | None:
    """The safety commit, its subject naming the session (what a fast-forward leaves in
    the base's log); if it fails, the caller's rollback restores the index."""
    session_id = record.id
    git_ok(["add", "-A"], worktree)
    done = commit_with_fallback_identity(
        ["commit", "-q", "-m", commit_subject(record)], worktree
    )
    if not done.ok:
        raise commit_refused(done, worktree, COMMIT_HOOKS,
                             N_("a git hook ({hooks}) refused the commit of the uncommitted work "
                                "in the worktree of session '{id}' ({worktree}); nothing was "
                                "changed. The hook said: {output}"),
                              id=session_id, worktree=str(worktree))
    return rev_parse(worktree, "HEAD")


def _changes_nothing(root: Path, branch: str) -> bool:
    """True when the base already holds the session's work: the branch is merged, or
    merging it would leave the base's tree as it is (a second ``--squash``, say)."""
    return holds_work_of(root, "HEAD", branch)


def _files_to_integrate(root: Path, branch: str) -> list[str]:
    names = git_ok(["diff", "--name-only", "-z", f"HEAD...{branch}"], root)
    return [n for n in names.split("\0") if n]


def _merge(project: Project, session_id: str, branch: str, result: MergeResult, *,
           lock_fd: int) -> None:
    root, message = project.base, result.message
    if result.squash and not result.no_commit:
        squash_branch(root, project.harness_dir, session_id, branch, lock_fd, message=message)
        return
    if not result.no_commit:
        merge_branch(root, session_id, branch, lock_fd, message=message,
                     no_ff=result.message_given)
        return
    # --no-commit and --squash --no-commit leave the merge staged in the base: asked for.
    # The message waits in MERGE_MSG / SQUASH_MSG for the user's git commit.
    args = ["merge", "--no-stat", "-q",
            *(["--squash"] if result.squash else ["--no-ff", "--no-commit", "-m", message]),
            branch]
    done = run_git(args, root)
    if not done.ok:  # the caller's rollback puts the base back
        raise git_failure(done)
    if result.squash:
        _prepend_squash_message(root, message)


def _prepend_squash_message(root: Path, message: str) -> None:
    """``git merge --squash`` ignores ``-m``: put the message first in ``SQUASH_MSG``,
    above git's list of the squashed commits, where ``git commit`` takes it from."""
    path = Path(git_ok(["rev-parse", "--path-format=absolute", "--git-path", "SQUASH_MSG"],
                       root).strip())
    refuse_symlink(path)
    listed = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    path.write_text(f"{message.rstrip()}\n\n{listed}", encoding="utf-8")


def _record_merge(store: SessionStore, session_id: str, branch: str) -> SessionRecord:
    tip = rev_parse(store.project.root, branch)

    def mark(record: SessionRecord) -> None:
        record.merged_at = now_rfc3339()
        record.merged_commit = tip

    return store.update(session_id, mark)
