"""Starting a sub-session, and merging its work into its parent (docs/orchy.md).

A child is a normal background session with ``parent_id`` in its record, in its own
worktree branched from its parent's current commit (the parent's worktree ``HEAD``; a
parent that works directly in the project gives the project's base). Its permission is
its parent's or stricter, a sandboxed parent's child is sandboxed (never more loosely:
:mod:`gzia.sessions.sandbox_floor`), and the caps of :mod:`gzia.sessions.caps` are
checked first, under ``.harness/subsessions.lock``, so two starts at once cannot both
pass a cap.

An idempotency key is scoped to the parent (stored as ``<parent id>/<key>``): a retried
start finds the child its key started (the key is in the child's record from the
moment it exists, so even after a crash between the start and the answer), and two
parents may use the same key.

gz-ia's own git runs here for gz-ia, not for the agent: the caller (Orchy, inside the
parent agent's environment) drops the agent's guardrail first
(:func:`gzia.sessions.guard.without_guard`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gzia.contract import InvalidInputError, LockedError, Permission, SafetyBlockError
from gzia.drivers.registry import get_driver
from gzia.filelock import hold_lock
from gzia.i18n import N_
from gzia.sessions.caps import Caps, child_permission, refuse_over_caps
from gzia.sessions.idempotency import validate_key
from gzia.sessions.mcp_command import server_command
from gzia.sessions.merge import merge_session
from gzia.sessions.reconcile import get_session, list_sessions
from gzia.sessions.record import SessionRecord
from gzia.sessions.run import SessionRequest, start_session
from gzia.sessions.run_settings import background_options, configured_watchdog, sandbox_wanted
from gzia.sessions.store import SessionStore
from gzia.sessions.symlinks import refuse_symlink
from gzia.sessions.workspace import worktree_for

START_LOCK_TIMEOUT = 60.0


@dataclass(frozen=True)
class ChildRequest:
    """What ``session_start`` asks for (one of ``provider`` and ``command``)."""

    provider: str | None = None
    command: Sequence[str] | None = None
    prompt: str | None = None
    name: str | None = None
    labels: Mapping[str, str] | None = None
    profiles: tuple[str, ...] = ()
    timeout_s: float | None = None
    idempotency_key: str | None = None
    permission: str | None = None


@dataclass(frozen=True)
class Started:
    record: SessionRecord
    reused: bool
    """The key's child answered: nothing new was started."""


def start_child(store: SessionStore, parent_id: str, asked: ChildRequest,
                environ: Mapping[str, str]) -> Started:
    """Start a child of ``parent_id`` in the background (see the module); ``environ``:
    the environment its agent starts from."""
    parent = get_session(store, parent_id)
    refuse_outside_git(store, parent)
    permission = child_permission(parent.permission_level, asked.permission)
    key = None if asked.idempotency_key is None else validate_key(
        f"{parent.id}/{asked.idempotency_key}")
    request = _session_request(store, parent, asked, permission, key)
    with _starts_in_turn(store):
        records = list_sessions(store).records
        if key is None or not any(r.idempotency_key == key for r in records):
            refuse_over_caps(parent, records, Caps.configured())
        run = start_session(request, watchdog=configured_watchdog(asked.timeout_s),
                            environ=environ)
    return Started(run.record, reused=run.reused is not None)


def refuse_outside_git(store: SessionStore, parent: SessionRecord) -> None:
    """A child works in a worktree of its own, so only a project in a git work tree has
    sub-sessions: outside one it would run in the user's files beside its parent, with
    nothing to review or merge (whatever ``--direct`` or the ``direct`` setting say, which
    an agent cannot pass anyway). ``SAFETY_BLOCK``: a refusal, not the tool's failure."""
    if store.project.is_git:
        return
    root = str(store.project.root)
    raise SafetyBlockError(N_("sub-sessions need a git work tree: '{dir}' is not in one, so a "
                              "sub-session would have no worktree of its own"),
                           dir=root,
                           hint_key=N_("do this work in the current session; only a session "
                                       "started in a git work tree can start sub-sessions"),
                           details={"dir": root, "parent_id": parent.id})


def _session_request(store: SessionStore, parent: SessionRecord, asked: ChildRequest,
                     permission: Permission, key: str | None) -> SessionRequest:
    if (asked.provider is None) == (asked.command is None):
        raise InvalidInputError(N_("give either provider (an agent) or command (a program and "
                                   "its arguments), not both and not neither"),
                                details={"arguments": ["provider", "command"]})
    return SessionRequest(
        store.project.root, get_driver(asked.provider or "shell"), permission,
        prompt=asked.prompt, command=list(asked.command) if asked.command is not None else None,
        mode="chat" if asked.command is None else "exec", pty=True,
        mcp_server=server_command(), background=background_options(True),
        labels=asked.labels, idempotency_key=key, profiles=asked.profiles, name=asked.name,
        notify=False, parent_id=parent.id, base_dir=_parent_tree(store, parent),
        sandbox=sandbox_wanted(parent.sandbox is not None))


def _parent_tree(store: SessionStore, parent: SessionRecord) -> Path | None:
    """The parent's worktree, whose current commit a child branches from; ``None`` for a
    parent working directly in the project (the child branches from the project's base)."""
    if not parent.is_isolated or not store.project.is_git:
        return None
    worktree = worktree_for(store.project, parent.id)
    return worktree if (worktree / ".git").is_file() else None


@contextlib.contextmanager
def _starts_in_turn(store: SessionStore) -> Iterator[None]:
    """One sub-session start at a time in a project: the caps hold for both of two
    starts asked at once (``LOCKED``, retryable, after a minute)."""
    path = store.project.harness_dir / "subsessions.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    refuse_symlink(path)
    root = str(store.project.root)
    fd = hold_lock(path, time.monotonic() + START_LOCK_TIMEOUT, poll=0.02,
                   locked=lambda: LockedError(N_("another sub-session of {root} has been "
                                                 "starting for a minute: try again"),
                                              root=root, details={"root": root}))
    try:
        yield
    finally:
        os.close(fd)  # closing releases the lock


def merge_into_parent(store: SessionStore, parent_id: str, child: SessionRecord, *,
                      squash: bool) -> dict[str, object]:
    """``session merge`` of ``child`` with its parent's worktree as the base: the same
    checks (a dirty or detached parent worktree, a conflict: nothing changes), into the
    parent's branch (``harness/<parent>``); the project's own branches are never touched."""
    parent = get_session(store, parent_id)
    worktree = _parent_tree(store, parent)
    if worktree is None:
        raise SafetyBlockError(N_("session '{id}' has no worktree of its own to merge a "
                                  "sub-session into: merge it with gz-ia session merge {child}"),
                               id=parent.id, child=child.id,
                               details={"id": parent.id, "child": child.id})
    into_parent = SessionStore(replace(store.project, base_root=worktree))
    return merge_session(into_parent, child, squash=squash).to_json()
