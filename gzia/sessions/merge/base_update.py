"""``session update``: bring the latest base into a session's branch, the other way round
from ``session merge``.

The base is the branch the session was made for (``base_branch``); with ``--fetch``, or
for a session branched with ``--fetch`` (``base_remote``), it is fetched again first and
the remote-tracking branch is used. The base itself is only read, never moved.

Order, so that a refusal changes nothing:

1. refuse direct-mode and running sessions, a session branched from a tag or a commit (no
   branch to follow), a worktree that is gone, or one not on its branch or in the middle
   of a merge or rebase;
2. check a snapshot of the worktree (uncommitted work included: a commit no ref points
   to) against the new base with ``git merge-tree``: a conflict is reported with its
   files, and nothing moves (or, with ``--resolve-with-agent``, the conflict is handed to
   a new session: :mod:`gzia.sessions.merge.handoff`);
3. commit the worktree's uncommitted work on the session branch (the same safety commit
   as ``session merge``);
4. rebase the branch onto the base in the worktree (``--merge``: merge the base into it);
   if git stops anyway (a commit in the middle conflicts), the rebase is aborted and the
   branch is back where it was after step 3;
5. record the new ``base_commit``.

git runs each step to its end even if gz-ia is killed (:func:`gzia.proc.run`,
``outlive_caller``); a rebase stopped half way by a kill stays in the worktree as git left
it (``git -C <worktree> rebase --abort`` puts it back), and step 1 refuses the next update
or merge until it is settled. The work is never lost: it is on the branch or in git's
``ORIG_HEAD``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.contract import ConflictError, InvalidInputError, NotFoundError
from gzia.i18n import N_, NN_
from gzia.sessions.base_ref import fetch_branch
from gzia.sessions.git import (
    FALLBACK_IDENTITY,
    git_failure,
    identity_missing,
    is_ancestor,
    rev_parse,
    run_git,
)
from gzia.sessions.merge.checks import (
    check_session_branch,
    conflicted_files,
    dirty_worktree,
    refuse_unsettled_worktree,
    snapshot,
)
from gzia.sessions.merge.service import commit_worktree_changes
from gzia.sessions.project import Project
from gzia.sessions.projection import projected_paths, unproject
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import worktree_for


@dataclass(frozen=True)
class BaseTarget:
    """What the session's branch is brought up to."""

    branch: str
    ref: str
    """``refs/heads/<branch>`` or, fetched, ``refs/remotes/<remote>/<branch>``."""
    commit: str
    remote: str | None = None

    @property
    def shown(self) -> str:
        return f"{self.remote}/{self.branch}" if self.remote else self.branch


@dataclass
class UpdateResult:
    session_id: str
    branch: str
    base: BaseTarget
    method: str
    """``rebase`` or ``merge``."""
    previous_head: str
    head: str
    already_up_to_date: bool = False
    safety_commit: str | None = None
    record: SessionRecord | None = None
    fallback_identity: bool = False
    """git knows no identity in the worktree and gz-ia committed (or rebased): as
    gz-ia <gz-ia@localhost> (the ``NO_GIT_IDENTITY`` warning)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.session_id, "branch": self.branch, "base": self.base.shown,
            "base_commit": self.base.commit, "method": self.method,
            "previous_head": self.previous_head, "head": self.head,
            "already_up_to_date": self.already_up_to_date,
            "safety_commit": self.safety_commit,
            "session": self.record.to_json() if self.record else None,
        }


def update_target(project: Project, record: SessionRecord, *, fetch: bool) -> BaseTarget:
    """The base to bring in: the local base branch, or the fetched one (``fetch``, or a
    session branched with ``--fetch``)."""
    branch = record.base_branch
    if not branch:
        raise InvalidInputError(N_("session '{id}' was branched from a commit, not a branch: it "
                                   "has no base to update from"),
                                id=record.id, details={"id": record.id})
    if fetch or record.base_remote:
        remote = fetch_branch(project.base, branch)
        ref = f"refs/remotes/{remote}/{branch}"
    else:
        remote, ref = None, f"refs/heads/{branch}"
    commit = rev_parse(project.base, ref)
    if commit is None:
        raise NotFoundError(N_("the base branch '{branch}' of session '{id}' does not exist "
                               "any more"),
                            id=record.id, branch=branch,
                            details={"id": record.id, "branch": branch, "ref": ref})
    return BaseTarget(branch, ref, commit, remote or None)


def update_session(store: SessionStore, record: SessionRecord, *, merge: bool = False,
                   fetch: bool = False) -> UpdateResult:
    """Bring the session's branch up to its base (steps in the module's docstring)."""
    project = store.project
    branch = check_session_branch(project, record)
    worktree = _existing_worktree(project, record)
    refuse_unsettled_worktree(project, record.id, branch)
    target = update_target(project, record, fetch=fetch)
    previous = rev_parse(worktree, "HEAD") or ""
    result = UpdateResult(record.id, branch, target, "merge" if merge else "rebase",
                          previous, previous)
    unproject(project, record.id, worktree)  # left by a killed gz-ia
    if is_ancestor(worktree, target.commit, "HEAD"):
        result.already_up_to_date = True
    else:
        refuse_update_conflicts(project, record, target)
        if dirty_worktree(project, record.id) is not None:
            result.safety_commit = commit_worktree_changes(worktree, record)
        _move_onto(worktree, record.id, target, merge=merge)
        result.head = rev_parse(worktree, "HEAD") or ""
        result.fallback_identity = identity_missing(worktree)
    result.record = store.update(record.id, lambda r: _based_on(r, target))
    return result


def refuse_update_conflicts(project: Project, record: SessionRecord, target: BaseTarget) -> None:
    """``CONFLICT`` naming the files, when the worktree as it is (uncommitted work
    included) and the base would conflict; nothing moves."""
    files = update_conflicts(project, record, target)
    if files:
        raise ConflictError(
            NN_("updating session '{id}' from {base} would conflict in {count} file: {files}. "
                "Nothing was changed",
                "updating session '{id}' from {base} would conflict in {count} files: {files}. "
                "Nothing was changed"),
            id=record.id, base=target.shown, count=len(files), files=", ".join(files),
            hint_key=N_("hand it to an agent with gz-ia session update {id} --resolve-with-agent, "
                        "or resolve it yourself in the worktree (git merge {base} there)"),
            details={"id": record.id, "base": target.shown, "base_commit": target.commit,
                     "files": files, "worktree": str(worktree_for(project, record.id))})


def update_conflicts(project: Project, record: SessionRecord, target: BaseTarget) -> list[str]:
    """The files that bringing ``target`` into the session would leave conflicted."""
    worktree = worktree_for(project, record.id)
    dirty = dirty_worktree(project, record.id)
    tip = snapshot(dirty, projected_paths(project, record.id)) if dirty else "HEAD"
    done = run_git(["merge-tree", "--write-tree", "-z", "--name-only", target.commit, tip],
                   worktree)
    if done.returncode == 0:
        return []
    if done.returncode != 1:
        raise git_failure(done)
    return conflicted_files(done.stdout)


def _existing_worktree(project: Project, record: SessionRecord) -> Path:
    worktree = worktree_for(project, record.id)
    if not (worktree / ".git").is_file():
        raise NotFoundError(N_("session '{id}' has no worktree to update ({worktree})"),
                            id=record.id, worktree=str(worktree),
                            details={"id": record.id, "worktree": str(worktree)})
    return worktree


def _move_onto(worktree: Path, session_id: str, target: BaseTarget, *, merge: bool) -> None:
    """Step 4; a stop in the middle is undone (``--abort``) and reported as a conflict."""
    identity = list(FALLBACK_IDENTITY) if identity_missing(worktree) else []
    if merge:
        args = ["merge", "--no-edit", "-q", "-m", f"Merge {target.shown} into session "
                f"{session_id}", target.commit]
    else:
        args = ["rebase", "-q", "--no-autostash", target.commit]
    done = run_git([*identity, *args], worktree, outlive_caller=True)
    if done.ok:
        return
    files = [name for name in run_git(["diff", "--name-only", "--diff-filter=U", "-z"],
                                      worktree).stdout.split("\0") if name]
    run_git([args[0], "--abort"], worktree, outlive_caller=True)
    if not files:
        raise git_failure(done)
    raise ConflictError(
        NN_("updating session '{id}' from {base} stopped on a conflict in {count} file: "
            "{files}. The branch is back as it was",
            "updating session '{id}' from {base} stopped on a conflict in {count} files: "
            "{files}. The branch is back as it was"),
        id=session_id, base=target.shown, count=len(files), files=", ".join(files),
        hint_key=N_("try gz-ia session update {id} --merge (one merge instead of replaying each "
                    "commit), or --resolve-with-agent"),
        details={"id": session_id, "base": target.shown, "base_commit": target.commit,
                 "files": files})


def _based_on(record: SessionRecord, target: BaseTarget) -> None:
    record.base_commit = target.commit
    if target.remote is not None:
        record.base_remote = target.remote
