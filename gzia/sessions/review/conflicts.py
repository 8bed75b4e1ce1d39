"""``session pr --merge --resolve-with-agent``: a pull request the forge would not merge,
its conflict named as ``session update`` names one, so that the same hand-off
(:mod:`gzia.sessions.merge.handoff`) resolves it.

The forge says only that it cannot merge (Forgejo's 405, GitHub's 405 or 409). The files
come from ``session update``'s own check, against the pull request's base fetched from its
remote: the resolving session merges that fetched base into the session's work.
"""

from __future__ import annotations

from gzia.contract import ConflictError
from gzia.sessions.base_ref import fetch_branch
from gzia.sessions.git import rev_parse
from gzia.sessions.merge import BaseTarget, refuse_update_conflicts
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore


def pr_base(store: SessionStore, record: SessionRecord) -> BaseTarget | None:
    """The pull request's base branch, fetched from the pull request's remote (None: the
    record names no base, or the fetched branch is not there)."""
    known = record.pull_request or {}
    branch = known.get("base") or record.base_branch
    if not branch:
        return None
    remote = fetch_branch(store.project.base, str(branch), str(known.get("remote") or "origin"))
    ref = f"refs/remotes/{remote}/{branch}"
    commit = rev_parse(store.project.base, ref)
    return None if commit is None else BaseTarget(str(branch), ref, commit, remote)


def pr_conflict(store: SessionStore, record: SessionRecord,
                refused: ConflictError) -> ConflictError:
    """The conflict between the session and its pull request's fetched base, files named
    (``details``: ``base``, ``base_commit``, ``files``); the forge's ``refused`` itself when
    git finds none (then there is nothing an agent could resolve)."""
    target = pr_base(store, record)
    if target is None:
        return refused
    try:
        refuse_update_conflicts(store.project, record, target)
    except ConflictError as conflict:
        return conflict
    return refused
