"""``session push``: the session's branch to a remote, with the user's own git credentials.

The push is the user's act: git runs with the user's environment and configuration (its
credential helper, its ssh agent) and the project's own ``pre-push`` hook. The session's
guardrails live in the agent's environment only (docs/sessions.md, "Guardrails"), so they
neither block this push nor are lifted by it: ``gz-ia session push`` run by an agent inside
its session meets the same ``pre-push`` refusal as its own ``git push``. gz-ia's own
credentials never reach git (:func:`gzia.proc.run` withholds them).

Uncommitted work in the worktree is committed first, its subject naming the session as
``merge``'s does (:func:`gzia.sessions.naming.commit_subject`); files gz-ia injected or
a profile projected are never published.
``--squash`` publishes one commit holding the session's changes on top of the commit it
branched from, and replaces the remote branch (a later squash is no descendant of the
earlier one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gzia.contract import ConflictError, IOFailure, NotFoundError, SafetyBlockError
from gzia.credentials import mask_credentials
from gzia.i18n import N_
from gzia.sessions.git import (
    commit_with_fallback_identity,
    git_failure,
    git_ok,
    identity_missing,
    rev_parse,
    run_git,
)
from gzia.sessions.merge import dirty_worktree, injected_files
from gzia.sessions.naming import commit_subject
from gzia.sessions.project import Project
from gzia.sessions.publish_trail import log_push
from gzia.sessions.record import SessionRecord
from gzia.sessions.session_commit import commit_session_work
from gzia.sessions.store import SessionStore

PUSH_TIMEOUT = 600.0
"""Seconds one ``git push`` may take (a large first push over a slow link)."""


@dataclass
class PushResult:
    id: str
    remote: str
    branch: str
    commit: str
    squash: bool
    safety_commit: str | None
    fallback_identity: bool = False
    """git knows no identity here and gz-ia committed (the uncommitted work, a squash): as
    gz-ia <gz-ia@localhost> (the ``NO_GIT_IDENTITY`` warning)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "remote": self.remote, "branch": self.branch,
                "commit": self.commit, "squash": self.squash,
                "safety_commit": self.safety_commit}


def remote_url(project: Project, remote: str) -> str:
    """The fetch URL of ``remote`` in the project; ``NOT_FOUND`` when there is none."""
    done = run_git(["remote", "get-url", "--", remote], project.root)
    if not done.ok or not done.stdout.strip():
        raise NotFoundError(N_("the repository {root} has no remote named '{remote}'"),
                            root=str(project.root), remote=remote,
                            hint_key=N_("list them with git -C {root} remote -v, or name one "
                                        "with --remote"),
                            details={"remote": remote, "root": str(project.root)})
    return done.stdout.strip()


def push_session(store: SessionStore, record: SessionRecord, remote: str, *,
                 squash: bool) -> PushResult:
    project = store.project
    branch = pushable_branch(record)
    remote_url(project, remote)
    safety = _commit_uncommitted(project, record)
    tip = rev_parse(project.root, branch)
    if tip is None:
        raise NotFoundError(N_("the branch {branch} of session '{id}' does not exist"),
                            id=record.id, branch=branch)
    since = record.base_commit or "HEAD"
    _refuse_own_files(project, record.id, tip, since, squash=squash)
    source = _squash_commit(project, record, tip, since) if squash else tip
    refspec = f"{'+' if squash else ''}{source}:refs/heads/{branch}"
    done = run_git(["push", "--quiet", "--", remote, refspec], project.root,
                   timeout=PUSH_TIMEOUT)
    if not done.ok:
        detail = mask_credentials((done.stderr or done.stdout).strip())
        raise IOFailure(N_("git push of session '{id}' to '{remote}' failed: {detail}"),
                        id=record.id, remote=remote, detail=detail,
                        details={"id": record.id, "remote": remote, "branch": branch,
                                 "exit_code": done.returncode, "output": detail})
    made_commits = safety is not None or squash
    pushed = PushResult(record.id, remote, branch, source, squash, safety,
                        fallback_identity=made_commits and identity_missing(project.root))
    log_push(store, pushed.to_json())
    return pushed


def pushable_branch(record: SessionRecord) -> str:
    """The session's branch; ``NOT_FOUND`` in direct mode, ``CONFLICT`` while it runs
    (``push`` and ``pr`` say so before they look at the remote)."""
    if not record.is_isolated or not record.branch_name:
        raise NotFoundError(N_("session '{id}' ran in direct mode: it has no branch to push"),
                            id=record.id, details={"id": record.id})
    if record.is_running:
        raise ConflictError(N_("session '{id}' is still running; push it once it has ended"),
                            id=record.id, hint_key=N_("gz-ia session stop {id}"),
                            details={"id": record.id, "status": record.status})
    return record.branch_name


def _commit_uncommitted(project: Project, record: SessionRecord) -> str | None:
    worktree = dirty_worktree(project, record.id)
    if worktree is None:
        return None
    done = commit_session_work(project, record.id, worktree, commit_subject(record))
    return done.commit


def _refuse_own_files(project: Project, session_id: str, tip: str, since: str, *,
                      squash: bool) -> None:
    files = injected_files(project, session_id, tip, squash=squash, since=since)
    if files:
        raise SafetyBlockError(
            N_("session '{id}' committed files that gz-ia injected or owns ({files}); pushing "
               "would publish them. Nothing was pushed"),
            id=session_id, files=", ".join(files),
            hint_key=N_("remove them from the session's commits in its worktree (gz-ia session "
                        "path {id}), then push again"),
            details={"id": session_id, "files": files})


def _squash_commit(project: Project, record: SessionRecord, tip: str, since: str) -> str:
    """One commit with ``tip``'s tree on ``since``, dated as ``tip`` (so pushing the same
    work twice pushes the same commit)."""
    parent = git_ok(["merge-base", since, tip], project.root).strip()
    dates = git_ok(["log", "-1", "--format=%aI%n%cI", tip], project.root).split()
    env = {"GIT_AUTHOR_DATE": dates[0], "GIT_COMMITTER_DATE": dates[1]}
    done = commit_with_fallback_identity(
        ["commit-tree", f"{tip}^{{tree}}", "-p", parent, "-m", commit_subject(record)],
        project.root, env=env)
    if not done.ok:
        raise git_failure(done)
    return done.stdout.strip()
