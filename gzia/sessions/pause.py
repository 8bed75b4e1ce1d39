"""``session pause``: free a session's worktree and keep its work on its branch;
``session revive``: bring the worktree back, at the same path, and go on.

Pause, in this order, so that a kill at any moment loses nothing (the work is in the
worktree until the paused commit holds it, and the worktree goes only after that):

1. a running agent is stopped as ``session stop`` stops it, and its owner (the
   foreground gz-ia or the background holder) is waited for: it takes the projection out
   and writes the final record;
2. what is uncommitted in the worktree is committed on ``harness/<id>`` as
   ``harness(<id>): paused`` (:func:`gzia.sessions.session_commit.commit_session_work`, a
   save point: gz-ia's own and projected or included files stay out, the project's commit
   hooks are not run, the identity falls back to gz-ia's as a merge's does); git runs to
   its end even if gz-ia is killed, holding the commit lock, so a retry waits for it;
3. nothing may be left uncommitted (anything that is refuses the pause, worktree kept);
4. the record says ``paused`` (``paused_at``, ``paused_from``: the status before);
5. the worktree is removed (its branch stays).

A retry after a kill does the steps not yet done: a ``paused`` record whose worktree
is still there goes through 2 to 5 again, and one whose directory git can no longer
read (a removal cut short) has it removed: it was committed before the record said
``paused``. One pause or revive of a session at a time (``<id>.life.lock``).

Revive: the worktree is added again from the branch at ``.harness/worktrees/<id>`` (the
path agents key their transcripts by), its ``.worktreeinclude`` files copied and its
setup run (:mod:`gzia.sessions.worktree_setup`), then the conversation is resumed by
the resume path (profiles and MCP configuration projected again), or, with
``no_resume``, the record gets its status from before the pause back. The record stays
``paused`` until then, so a revive cut short is simply run again.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import ConflictError, LockedError, NotFoundError, SafetyBlockError
from gzia.filelock import hold_lock
from gzia.i18n import N_
from gzia.sessions.graceful_stop import StopOutcome, stop_gracefully
from gzia.sessions.project import Project, find_project
from gzia.sessions.projection import ever_projected, unproject
from gzia.sessions.reconcile import get_session, owner_alive
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.resuming import ResumeRequest, resume
from gzia.sessions.session_commit import SessionCommit, commit_session_work
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import (
    branch_exists,
    branch_for,
    current_branch,
    remove_worktree,
    resumed_workspace,
    worktree_adds_in_turn,
    worktree_for,
)
from gzia.sessions.worktree_setup import ready_resumed
from gzia.sessions.worktree_work import uncommitted_files

if TYPE_CHECKING:
    from gzia.sessions.run import LaunchCallback, SessionRun
    from gzia.sessions.workspace import Workspace

LIFE_LOCK_SUFFIX = ".life.lock"
LIFE_LOCK_TIMEOUT = 30.0
SETTLE_TIMEOUT = 15.0
"""How long a pause waits for a stopped agent's owner to write its record and exit."""
NOTHING = SessionCommit(False, None, [])


@dataclass(frozen=True)
class PauseResult:
    record: SessionRecord
    commit: SessionCommit
    stop: StopOutcome | None
    already_paused: bool

    def to_json(self) -> dict[str, object]:
        return {"commit": self.commit.commit, "files": self.commit.files,
                "stop": self.stop.to_json() if self.stop else None,
                "already_paused": self.already_paused}


def check_pausable(store: SessionStore, ref: str) -> SessionRecord:
    """The refusals :func:`pause_session` makes before it changes anything, without the
    change: a direct-mode session (no worktree to free), a worktree on another branch."""
    record = get_session(store, ref)
    _isolated(record)
    worktree = worktree_for(store.project, record.id)
    if (worktree / ".git").is_file():
        _on_its_branch(record.id, worktree)
    return record


def pause_session(store: SessionStore, ref: str, *, stop_timeout_s: float) -> PauseResult:
    """Pause the session ``ref`` (see the module's doc)."""
    session_id = store.resolve(ref)
    check_pausable(store, session_id)
    with life_lock(store, session_id) as held:
        record = get_session(store, session_id)
        worktree = worktree_for(store.project, session_id)
        if record.status == Status.PAUSED and not os.path.lexists(worktree):
            return PauseResult(record, NOTHING, None, already_paused=True)
        stop = (stop_gracefully(store, session_id, stop_timeout_s)
                if record.is_running else None)
        record = _settled(store, session_id)
        saved = _save_work(store.project, record)
        record = store.update(session_id, _mark_paused)
        remove_worktree(store.project, worktree, pass_fds=held.fds)
        return PauseResult(record, saved, stop, already_paused=False)


def revive_worktree(store: SessionStore, ref: str, *, skip_setup: bool) -> SessionRecord:
    """``revive --no-resume``: the worktree back and ready, the agent not started; the
    record's status is the one it had before the pause."""
    session_id = store.resolve(ref)
    with life_lock(store, session_id):
        record = paused_record(store, session_id)
        _no_add_in_flight(store.project)
        workspace = resumed_workspace(store.project, record)
        ready_resumed(store, workspace, record, skip_setup=skip_setup)
        return store.update(session_id, _unpause)


def paused_record(store: SessionStore, ref: str) -> SessionRecord:
    """The record of ``ref``, which must be ``paused`` (else ``CONFLICT``), with its branch
    (else ``NOT_FOUND``: a worktree added without it would start from the base, empty)."""
    record = get_session(store, ref)
    if record.status != Status.PAUSED:
        raise ConflictError(N_("session '{id}' is not paused (current status: {status})"),
                            id=record.id, status=record.status,
                            hint_key=N_("a session that is not paused goes on with gz-ia session "
                                        "resume {id}"),
                            details={"id": record.id, "status": record.status},
                            data=record.to_json())
    branch = branch_for(record.id)
    if not branch_exists(store.project.root, branch):
        raise NotFoundError(N_("the branch {branch} of paused session '{id}' is gone: it held "
                               "the session's work, so there is nothing to revive"),
                            branch=branch, id=record.id,
                            hint_key=N_("if you still have its commit, recreate it with git "
                                        "branch {branch} <commit>"),
                            details={"id": record.id, "branch": branch})
    return record


class HeldLock:
    """A lock its holder may release early (a revive, once its agent is about to start)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @property
    def fds(self) -> tuple[int, ...]:
        """The lock's descriptor while held: a git command given it holds the lock too."""
        return () if self._fd is None else (self._fd,)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


@contextlib.contextmanager
def life_lock(store: SessionStore, session_id: str) -> Iterator[HeldLock]:
    """One pause or revive of a session at a time (``LOCKED``, retryable, after 30 s)."""
    path = store.dir / f"{session_id}{LIFE_LOCK_SUFFIX}"
    held = HeldLock(hold_lock(path, time.monotonic() + LIFE_LOCK_TIMEOUT, poll=0.02,
                              locked=lambda: LockedError(
                                  N_("another gz-ia process is pausing or reviving session "
                                     "'{id}'; try again"),
                                  id=session_id, details={"id": session_id})))
    try:
        yield held
    finally:
        held.release()


def revive(request: ResumeRequest, on_launch: LaunchCallback | None = None) -> SessionRun:
    """``revive``: the worktree back at its path and ready, then the conversation resumed
    (the lock is let go as the agent starts: a pause may then stop it)."""
    store = SessionStore(find_project(request.directory))
    session_id = store.resolve(request.ref)
    with life_lock(store, session_id) as held:
        paused_record(store, session_id)
        _no_add_in_flight(store.project)

        def launched(record: SessionRecord, workspace: Workspace) -> None:
            held.release()
            if on_launch is not None:
                on_launch(record, workspace)

        return resume(request, launched)


def _no_add_in_flight(project: Project) -> None:
    """Wait for a ``git worktree add`` still running (a revive killed during it: git ends
    its checkout holding the lock), so the worktree is never taken half checked out."""
    with worktree_adds_in_turn(project):
        pass


def _isolated(record: SessionRecord) -> None:
    if not record.is_isolated:
        raise ConflictError(N_("session '{id}' works in {dir} itself (direct mode): it has no "
                               "worktree to free"),
                            id=record.id, dir=record.working_dir,
                            details={"id": record.id, "dir": record.working_dir})


def _settled(store: SessionStore, session_id: str) -> SessionRecord:
    """The record once its run has ended and its owner has exited (``LOCKED`` past
    :data:`SETTLE_TIMEOUT`)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while True:
        record = get_session(store, session_id)
        if not record.is_running and owner_alive(record) is not True:
            return record
        if time.monotonic() >= deadline:
            raise LockedError(N_("session '{id}' is still ending; try the pause again in a "
                                 "moment"),
                              id=session_id, details={"id": session_id})
        time.sleep(0.05)


def _save_work(project: Project, record: SessionRecord) -> SessionCommit:
    """Steps 2 and 3: the worktree's uncommitted work committed on its branch."""
    worktree = worktree_for(project, record.id)
    if not os.path.lexists(worktree):
        return NOTHING
    if not (worktree / ".git").is_file():
        if record.status == Status.PAUSED:
            return NOTHING  # a removal cut short: all of it was committed before
        raise SafetyBlockError(
            N_("the worktree of session '{id}' ({worktree}) is not one git can read: gz-ia "
               "cannot tell what it holds, so it does not pause the session"),
            id=record.id, worktree=str(worktree),
            hint_key=N_("look at what it holds; gz-ia session delete {id} --force discards it"),
            details={"id": record.id, "worktree": str(worktree)})
    _on_its_branch(record.id, worktree)
    unproject(project, record.id, worktree)  # left by a killed owner
    saved = commit_session_work(project, record.id, worktree,
                                f"harness({record.id}): paused", save_point=True)
    _nothing_left(project, record.id)
    return saved


def _on_its_branch(session_id: str, worktree: Path) -> None:
    branch = branch_for(session_id)
    checked_out = current_branch(worktree)
    if checked_out != branch:
        shown = checked_out or "HEAD"
        raise SafetyBlockError(
            N_("the worktree of session '{id}' is not on its branch {branch} ({checked_out} is "
               "checked out): a paused commit would not be on the session's branch; nothing was "
               "changed"),
            id=session_id, branch=branch, checked_out=shown, worktree=str(worktree),
            hint_key=N_("switch it back (git -C {worktree} switch {branch}), then pause again"),
            details={"id": session_id, "branch": branch, "checked_out": shown,
                     "worktree": str(worktree)})


def _nothing_left(project: Project, session_id: str) -> None:
    """Step 3: after the commit only gz-ia's own files may be left uncommitted."""
    worktree = worktree_for(project, session_id)
    own = set(ever_projected(project, session_id))
    found = uncommitted_files(worktree)
    left = ["?"] if found is None else [path for path in found if path not in own]
    if left:
        raise SafetyBlockError(
            N_("session '{id}' still has uncommitted files after its paused commit ({files}); "
               "its worktree was kept"),
            id=session_id, files=", ".join(left[:10]),
            details={"id": session_id, "worktree": str(worktree), "files": left})


def _mark_paused(record: SessionRecord) -> None:
    if record.is_running:  # resumed meanwhile by a command that took no lock
        raise ConflictError(N_("session '{id}' started running again; it was not paused"),
                            id=record.id, details={"id": record.id})
    if record.status != Status.PAUSED:
        record.paused_from = record.status
        record.status = Status.PAUSED
    record.paused_at = now_rfc3339()


def _unpause(record: SessionRecord) -> None:
    record.status = record.paused_from or Status.COMPLETED
    record.paused_at = record.paused_from = None
