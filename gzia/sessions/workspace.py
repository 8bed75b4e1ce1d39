"""Where a session's agent works: an isolated git worktree, or the directory itself.

Isolated: ``git worktree add -b harness/<id> .harness/worktrees/<id> <HEAD>``, HEAD being
the base's (the user's linked worktree the command runs in, else the main worktree: see
:mod:`gzia.sessions.project`), the worktree always under the main worktree's root, with
``.harness/`` and ``.harness-session/`` listed in the repository's ``info/exclude``.
Direct mode (``is_isolated: false``) outside a git work tree, and only when asked
(:func:`refuse_unasked_direct`); git missing inside a work tree is an error
(:func:`gzia.sessions.project.find_project`). A repository without any commit is an error
that says to commit first.

Nothing here writes git configuration and no hook path is changed, so the project's own
hooks keep running inside session worktrees.

Injected files (MCP configuration and the like) live under ``.harness-session/`` at the
top of the worktree. ``info/exclude`` lives in git's common directory, so that one entry
applies to every worktree of the repository: ``git add -A`` (by the agent or by
``session merge``) never picks those files up, and they never reach the user's branch.
In direct mode they live under ``.harness/session-files/<id>/``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from gzia.atomic import write_atomic
from gzia.contract import InvalidInputError, LockedError, NotFoundError, SafetyBlockError
from gzia.filelock import hold_lock
from gzia.i18n import N_
from gzia.sessions.git import changed_paths, git_failure, rev_parse, run_git
from gzia.sessions.ids import BRANCH_PREFIX, validate_session_id
from gzia.sessions.project import HARNESS_DIR, Project
from gzia.sessions.record import SessionRecord
from gzia.sessions.symlinks import refuse_symlink
from gzia.supervisor.signals import stop_signals_held

if TYPE_CHECKING:
    from gzia.sessions.base_ref import BaseChoice

INJECTED_DIR = ".harness-session"
HARNESS_PATHS = (HARNESS_DIR, INJECTED_DIR)
"""gz-ia's own directories: what is under them is never the user's uncommitted work."""
EXCLUDE_HEADER = "# gz-ia session worktrees and metadata"
EXCLUDED_ENTRIES = (f"{HARNESS_DIR}/", f"{INJECTED_DIR}/")


@dataclass(frozen=True)
class Workspace:
    session_id: str
    working_dir: Path
    """The project root (the main worktree, where the store lives), never the worktree."""
    target_dir: Path
    """Where the agent runs: the worktree, or ``working_dir`` in direct mode."""
    is_isolated: bool
    worktree_dir: Path | None = None
    branch_name: str | None = None
    base_branch: str | None = None
    base_commit: str | None = None
    base_dir: Path | None = None
    """The user's linked worktree the session branched from; ``None``: ``working_dir``."""
    base_remote: str | None = None
    """``--fetch``: the remote the base branch came from."""
    created: bool = field(default=False, compare=False)
    """The worktree was added just now (a new session, or one re-created from its branch):
    its ``.worktreeinclude`` files and set-up come next (:mod:`.worktree_setup`)."""

    @property
    def injected_dir(self) -> Path:
        if self.is_isolated:
            return self.target_dir / INJECTED_DIR
        return self.working_dir / HARNESS_DIR / "session-files" / self.session_id

    def apply_to(self, record: SessionRecord) -> None:
        """Copy the workspace facts into a session record."""
        record.working_dir = str(self.working_dir)
        record.is_isolated = self.is_isolated
        record.worktree_dir = str(self.worktree_dir) if self.worktree_dir else None
        record.branch_name = self.branch_name
        if self.base_branch is not None or record.base_branch is None:
            record.base_branch = self.base_branch
        if self.base_commit is not None or record.base_commit is None:
            record.base_commit = self.base_commit
        if self.base_remote is not None:
            record.base_remote = self.base_remote


def branch_for(session_id: str) -> str:
    return BRANCH_PREFIX + validate_session_id(session_id)


def worktree_for(project: Project, session_id: str) -> Path:
    """``.harness/worktrees/<id>``; ``SAFETY_BLOCK`` if it is a symbolic link (nothing of
    gz-ia's runs, reads or deletes through one: see :mod:`gzia.sessions.symlinks`)."""
    path = project.worktrees_dir / validate_session_id(session_id)
    refuse_symlink(path)
    return path


def refuse_unasked_direct(project: Project, direct: bool) -> None:
    """Outside a git work tree a new session runs in the directory itself only when asked
    (``direct``: ``--direct`` or the ``direct`` setting); otherwise ``SAFETY_BLOCK``: the
    agent would change the user's files with nothing to review, merge or throw away. From
    the home directory (or above it) the hint says to go to a project: ``git init`` there
    would put every file of the home directory under git."""
    if project.is_git or direct:
        return
    root = str(project.root)
    hint = (N_("run it from your project's directory (cd there, or -d <project>); or run it "
               "here anyway with --direct (or gz-ia config set direct true)")
            if _holds_home(project.root)
            else N_("isolate it: git init && git add -A && git commit -m 'initial commit'; or "
                    "run it here anyway with --direct (or gz-ia config set direct true)"))
    raise SafetyBlockError(N_("'{dir}' is not in a git work tree: the agent would work directly "
                              "in your files, with no isolated worktree to review or throw away"),
                           dir=root, hint_key=hint, details={"dir": root})


def _holds_home(directory: Path) -> bool:
    """``directory`` is the user's home directory or one above it (``/home``, ``/``)."""
    home = Path.home().resolve()
    return home == directory.resolve() or directory.resolve() in home.parents


def resumed_workspace(project: Project, record: SessionRecord) -> Workspace:
    """The workspace a resume (or a revive) runs the session in: its worktree, added again
    from its branch if needed; a direct-mode session's directory (direct was asked for when
    it started). An isolated session whose directory is no longer in a git work tree (its
    ``.git`` moved or deleted) is ``NOT_FOUND``: running it there would put the agent in
    the user's files, unisolated, without anyone asking."""
    if not record.is_isolated:
        return workspace_of(project, record)
    if not project.is_git:
        root = str(project.root)
        raise NotFoundError(
            N_("session '{id}' ran in an isolated worktree, but '{dir}' is no longer in a git "
               "work tree: resuming it there would run the agent directly in your files"),
            id=record.id, dir=root,
            hint_key=N_("put the repository's .git back, or start a new session (with --direct "
                        "to work in the directory itself)"),
            details={"id": record.id, "dir": root})
    return prepare_workspace(project, record.id)  # re-created from its branch if needed


def prepare_workspace(project: Project, session_id: str,
                      base: BaseChoice | None = None) -> Workspace:
    """Create (or reuse, on resume) the session's workspace, branched from ``base``
    (``--base``/``--fetch``: :mod:`gzia.sessions.base_ref`), else from the base's HEAD."""
    session_id = validate_session_id(session_id)
    if not project.is_git:
        return Workspace(session_id, project.root, project.root, is_isolated=False)
    if base is None:
        base_commit, base_branch = _head_commit(project), current_branch(project.base)
    else:
        base_commit, base_branch = base.commit, base.branch
    ensure_excluded(project)
    worktree, branch = worktree_for(project, session_id), branch_for(session_id)
    created = not _is_worktree(worktree)
    if created:
        _add_worktree(project, worktree, branch, base_commit)
    return Workspace(session_id, project.root, worktree, True, worktree, branch,
                     base_branch, base_commit, project.base_root,
                     base.remote if base is not None else None, created)


def workspace_of(project: Project, record: SessionRecord) -> Workspace:
    """The workspace a record describes (nothing is created).

    Its paths come from the project, never from the record: a record edited by hand, or
    one whose project was moved, must not point an agent at another directory.
    """
    if record.is_isolated and project.is_git:
        worktree = worktree_for(project, record.id)
        return Workspace(record.id, project.root, worktree, True, worktree,
                         branch_for(record.id), record.base_branch, record.base_commit)
    return Workspace(record.id, project.root, project.root, is_isolated=False)


def uncommitted_in_base(workspace: Workspace) -> list[str]:
    """Paths the base work tree has changed or untracked: a new isolated session starts
    from the base's last commit, so it has none of them. Empty in direct mode (the agent
    works in the directory itself) and for a session branched from elsewhere (``--base``,
    ``--fetch``), which was never going to have them."""
    if not workspace.is_isolated:
        return []
    base_dir = workspace.base_dir or workspace.working_dir
    changed = changed_paths(base_dir)
    if changed and workspace.base_commit not in (None, rev_parse(base_dir, "HEAD")):
        return []
    return changed


def inject_file(workspace: Workspace, relpath: str, content: str | bytes) -> Path:
    """Write a file for the agent that never reaches the user's branch; returns its path.

    ``relpath`` is relative to the workspace's injected-files directory
    (``<worktree>/.harness-session/``); absolute paths and ``..`` are refused.
    """
    parts = PurePosixPath(relpath).parts
    if not parts or PurePosixPath(relpath).is_absolute() or ".." in parts or "\\" in relpath:
        raise InvalidInputError(N_("invalid injected file path '{path}'"), path=relpath,
                                details={"path": relpath})
    destination = workspace.injected_dir.joinpath(*parts)
    _refuse_links_on_the_way(workspace.target_dir, destination)
    data = content.encode("utf-8") if isinstance(content, str) else content
    write_atomic(destination, data, mode=0o600)
    return destination


def _refuse_links_on_the_way(top: Path, destination: Path) -> None:
    """No directory between ``top`` and ``destination`` (nor it) may be a symbolic link:
    a repository can track ``.harness-session -> /elsewhere``."""
    current = top
    for part in destination.relative_to(top).parts:
        current = current / part
        refuse_symlink(current)


def ensure_excluded(project: Project) -> None:
    """List ``.harness/`` and ``.harness-session/`` in the repository's ``info/exclude``."""
    if project.git_common_dir is None:
        return
    exclude = project.git_common_dir / "info" / "exclude"
    existing = exclude.read_text(encoding="utf-8") if exclude.is_file() else ""
    present = {line.strip() for line in existing.splitlines()}
    missing = [entry for entry in EXCLUDED_ENTRIES if entry not in present]
    if not missing:
        return
    exclude.parent.mkdir(parents=True, exist_ok=True)
    prefix = "" if not existing or existing.endswith("\n") else "\n"
    header = "" if EXCLUDE_HEADER in present else f"\n{EXCLUDE_HEADER}\n"
    with exclude.open("a", encoding="utf-8") as handle:
        handle.write(prefix + header + "".join(f"{entry}\n" for entry in missing))


def current_branch(directory: Path) -> str | None:
    done = run_git(["symbolic-ref", "-q", "--short", "HEAD"], directory)
    if not done.ok:
        return None  # detached HEAD
    return done.stdout.strip() or None


def branch_exists(directory: Path, branch: str) -> bool:
    return run_git(["show-ref", "--verify", "--quiet", f"refs/heads/{branch}"], directory).ok


def _head_commit(project: Project) -> str:
    done = run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], project.base)
    if not done.ok:
        root = str(project.base)
        raise NotFoundError(N_("the repository at {root} has no commits yet; sessions branch from "
                               "HEAD"),
                            root=root,
                            hint_key=N_("make a first commit: git add -A && git commit -m 'initial "
                                        "commit'"),
                            details={"root": root})
    return done.stdout.strip()


def _is_worktree(directory: Path) -> bool:
    return (directory / ".git").is_file()


def _add_worktree(project: Project, worktree: Path, branch: str, base_commit: str) -> None:
    """``git worktree add``; if it fails or gz-ia is stopped meanwhile, what it created
    (the directory, and the branch unless it existed before) is removed again."""
    project.worktrees_dir.mkdir(parents=True, exist_ok=True)
    with worktree_adds_in_turn(project) as lock:
        forget_missing_worktree(project, worktree)
        new_branch = not branch_exists(project.root, branch)
        if new_branch:
            args = ["worktree", "add", "-b", branch, str(worktree), base_commit]
        else:
            args = ["worktree", "add", str(worktree), branch]
        new_dir = not worktree.exists()
        try:  # a killed gz-ia never leaves a half checked-out worktree: git ends its work
            done = run_git(args, project.root, outlive_caller=True, pass_fds=(lock,))
            if not done.ok:
                raise git_failure(done)
        except BaseException:
            _undo_worktree_add(project, worktree if new_dir else None,
                               branch if new_branch else None)
            raise


WORKTREE_ADD_LOCK_TIMEOUT = 60.0


@contextlib.contextmanager
def worktree_adds_in_turn(project: Project) -> Iterator[int]:
    """One ``git worktree add`` of gz-ia's at a time in a project.

    git does not serialize them itself: an add that reads the list of worktrees while
    another is being created can find its ``.git/worktrees/<name>/commondir`` not yet
    written and fail ("failed to read ... commondir"), e.g. with 20 ``exec -b`` started
    at once. The lock is ``.harness/worktrees.lock`` (``LOCKED``, retryable, after a
    minute).
    """
    root = str(project.root)
    fd = hold_lock(project.worktrees_dir.parent / "worktrees.lock",
                   time.monotonic() + WORKTREE_ADD_LOCK_TIMEOUT, poll=0.02,
                   locked=lambda: LockedError(N_("another gz-ia process has been creating a "
                                                 "worktree in {root} for a minute: try again"),
                                              root=root,
                                              details={"root": root}))
    try:
        yield fd  # a git command given it holds the lock until it ends
    finally:
        os.close(fd)  # closing releases the lock


def forget_missing_worktree(project: Project, worktree: Path) -> None:
    """Make git forget this one worktree if its directory is gone.

    Never ``git worktree prune``: that forgets every missing worktree, a user's own on an
    unmounted disk included, and leaves it broken when the disk comes back.
    """
    if not worktree.exists():
        run_git(["worktree", "remove", "--force", str(worktree)], project.root)


def discard_new_workspace(project: Project, workspace: Workspace, *,
                          keep_branch: bool = False) -> None:
    """Remove a workspace that :func:`prepare_workspace` has just created for a new session
    whose record could not be written (its worktree and its still-empty branch), or whose
    set-up failed; ``keep_branch`` for one re-created from a branch that holds work."""
    if workspace.is_isolated and workspace.worktree_dir is not None:
        _undo_worktree_add(project, workspace.worktree_dir,
                           None if keep_branch else workspace.branch_name)


def _undo_worktree_add(project: Project, worktree: Path | None, branch: str | None) -> None:
    """Best effort, with stop signals held so that a second Ctrl+C cannot cut it short."""
    with stop_signals_held():
        if worktree is not None:
            remove_worktree(project, worktree)
        if branch is not None:
            run_git(["branch", "-D", branch], project.root)


def remove_worktree(project: Project, worktree: Path, *, pass_fds: tuple[int, ...] = ()) -> None:
    """Remove a session worktree whatever it holds (the caller knows it may), and make git
    forget it. git runs to its end even if gz-ia is killed meanwhile, holding ``pass_fds``
    (the caller's lock) until then."""
    import shutil

    with stop_signals_held():
        run_git(["worktree", "remove", "--force", "--force", str(worktree)], project.root,
                outlive_caller=True, pass_fds=pass_fds)
        shutil.rmtree(worktree, ignore_errors=True)
        forget_missing_worktree(project, worktree)
