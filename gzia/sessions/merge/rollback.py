"""Putting the base and the worktree back when a merge stops half way.

From the safety commit on, ``session merge`` changes things: the worktree's index and its
branch, then the base's index, working tree and branch. When a hook refuses a commit, git
fails, or gz-ia is stopped (Ctrl+C, SIGTERM) in the middle, :class:`MergeRollback` puts
back what gz-ia itself changed, and only that:

- the base: ``git reset --merge`` to the recorded HEAD (what ``git merge --abort`` runs),
  when HEAD is still the recorded commit or one that gz-ia's merge made (the session tip
  after a fast-forward, a merge commit of the recorded HEAD and the tip, a squash commit
  on the recorded HEAD);
- the worktree: its branch moved back from the safety commit (compare-and-swap, so a
  commit made by someone else is never dropped) and its index file restored byte for
  byte, with its timestamps, under git's own ``index.lock`` protocol.

:meth:`MergeRollback.undo` runs with stop signals held, so a second Ctrl+C cannot cut it
short, and reports whether everything is back as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from gzia.i18n import N_, gettext
from gzia.sessions.git import IndexFile, changed_paths, git_ok, index_path, rev_parse, run_git
from gzia.sessions.workspace import HARNESS_PATHS, current_branch
from gzia.supervisor.signals import stop_signals_held


@dataclass
class SavedIndex:
    """A worktree's index file as it was before gz-ia ran ``git add -A`` there."""

    path: Path
    saved: IndexFile | None

    @classmethod
    def of(cls, worktree: Path) -> SavedIndex:
        path = index_path(worktree)
        return cls(path, IndexFile.read(path))

    def restore(self) -> bool:
        """Write it back as git does (``index.lock``, then rename), with its own
        timestamps (see :class:`IndexFile`); False if git holds the lock."""
        lock = self.path.with_name(self.path.name + ".lock")
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        try:
            try:
                if self.saved is not None:
                    self.saved.write(fd)
                    os.fsync(fd)
            finally:
                os.close(fd)
            if self.saved is None:
                self.path.unlink(missing_ok=True)
                lock.unlink()
            else:
                lock.replace(self.path)
        except BaseException:
            lock.unlink(missing_ok=True)
            raise
        return True


@dataclass
class MergeRollback:
    session_id: str
    root: Path
    into: str
    """The base's checked-out branch."""
    base_head: str
    session_branch: str
    squash: bool = False
    worktree_head: str | None = None
    saved_index: SavedIndex | None = None
    problems: list[str] = field(default_factory=list)
    """What could not be put back, in the user's language."""
    recorded: bool = False
    """The merge is in the session's record: from then on it is kept, never undone."""
    orig_head: str | None = None
    """The base's ``ORIG_HEAD`` before the merge (git's merge and reset both set it)."""

    def save_worktree(self, worktree: Path) -> None:
        """Remember the worktree's index and branch tip before the safety commit."""
        self.worktree_head = rev_parse(worktree, "HEAD")
        self.saved_index = SavedIndex.of(worktree)

    def undo(self) -> bool:
        """Put back what the merge changed; True when the base and the worktree are as
        they were (``problems`` says what is not)."""
        with stop_signals_held():  # a stop meanwhile is dropped: the undo is the way out
            for step in (self._undo_base, self._undo_worktree):
                try:
                    step()
                except Exception as exc:  # reported; the other step still runs
                    self._problem(N_("{detail}"),
                                  detail=f"{type(exc).__name__}: {exc}")
        return not self.problems

    def _problem(self, key: str, **params: str | None) -> None:
        self.problems.append(gettext(key, **params))

    # the base

    def _undo_base(self) -> None:
        root = str(self.root)
        if current_branch(self.root) != self.into:
            self._problem(N_("{root} no longer has {branch} checked out"), root=root,
                          branch=self.into)
            return
        head = rev_parse(self.root, "HEAD")
        if head != self.base_head and not self._made_by_merge(head):
            self._problem(N_("{branch} moved to {head}, not by this merge (left as it is)"),
                          root=root, branch=self.into,
                          head=head)
            return
        if head != self.base_head or self._base_changed():
            done = run_git(["reset", "-q", "--merge", self.base_head], self.root)
            if not done.ok:
                detail = (done.stderr or done.stdout).strip()
                self._problem(N_("{root} could not be reset ({detail})"), root=root, detail=detail)
                return
        if rev_parse(self.root, "HEAD") != self.base_head or self._base_changed():
            self._problem(N_("{root} could not be reset ({detail})"), root=root,
                          detail="git status")
            return
        self._restore_orig_head()

    def _restore_orig_head(self) -> None:
        """``ORIG_HEAD`` as it was: none, or the commit it named."""
        args = (["update-ref", "--no-deref", "ORIG_HEAD", self.orig_head] if self.orig_head
                else ["update-ref", "-d", "ORIG_HEAD"])
        run_git(args, self.root)

    def _made_by_merge(self, head: str | None) -> bool:
        """The session tip (a fast-forward), or a commit of ours on the recorded HEAD."""
        if head is None:
            return False
        tip = rev_parse(self.root, self.session_branch)
        if head == tip:
            return True
        parents = git_ok(["rev-list", "--parents", "-n", "1", head], self.root).split()[1:]
        return parents == ([self.base_head] if self.squash else [self.base_head, tip])

    def _base_changed(self) -> bool:
        if run_git(["rev-parse", "-q", "--verify", "MERGE_HEAD"], self.root).ok:
            return True
        return bool(changed_paths(self.root, ignore_dirs=HARNESS_PATHS))

    # the worktree

    def _undo_worktree(self) -> None:
        if self.saved_index is None:
            return
        if not self._undo_safety_commit():
            return  # the index goes with a commit that stays
        if not self.saved_index.restore():
            self._problem(N_("{path}.lock exists: git is using the index"),
                          path=str(self.saved_index.path))

    def _undo_safety_commit(self) -> bool:
        """Move the session branch back from the safety commit, if it was made."""
        head = rev_parse(self.root, self.session_branch)
        if head is None or head == self.worktree_head or self.worktree_head is None:
            return True
        parents = git_ok(["rev-list", "--parents", "-n", "1", head], self.root).split()[1:]
        if parents != [self.worktree_head]:
            self._problem(N_("{branch} moved to {head}, not by this merge (left as it is)"),
                          root=str(self.root),
                          branch=self.session_branch, head=head)
            return False
        done = run_git(["update-ref", "-m", f"gz-ia: merge of {self.session_id} undone",
                        f"refs/heads/{self.session_branch}", self.worktree_head, head],
                       self.root)
        if not done.ok:
            self._problem(N_("{root} could not be reset ({detail})"), root=str(self.root),
                          detail=done.stderr.strip())
        return done.ok
