"""What refuses a ``session merge`` before anything changes (steps 1 and 2 of
:mod:`gzia.sessions.merge`): the session, the base, the worktree, and a snapshot of the
worktree checked for conflicts, for files gz-ia owns, and for ignored files the merge
would overwrite. Nothing here writes to the base or to the worktree.

The base is ``project.base``: the work tree the command runs in when that is a linked
worktree of the user's, else the main worktree (see :mod:`gzia.sessions.project`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from gzia.contract import ConflictError, NotFoundError, SafetyBlockError
from gzia.i18n import N_, NN_, ngettext
from gzia.sessions.git import (
    changed_paths,
    commit_with_fallback_identity,
    git_failure,
    git_ok,
    private_index,
    rev_parse,
    run_git,
)
from gzia.sessions.project import HARNESS_DIR, Project
from gzia.sessions.projection import ever_projected, projected_paths
from gzia.sessions.record import SessionRecord
from gzia.sessions.workspace import (
    HARNESS_PATHS,
    INJECTED_DIR,
    branch_exists,
    branch_for,
    current_branch,
    worktree_for,
)


def check_mergeable(project: Project, record: SessionRecord) -> tuple[str, str]:
    branch = check_session_branch(project, record)
    _refuse_operation_in_progress(project)
    into = _refuse_detached_base(project, record)
    dirty = changed_paths(project.base, ignore_dirs=HARNESS_PATHS)
    if dirty:
        root = str(project.base)
        raise SafetyBlockError(N_("the base repository ('{root}') has uncommitted changes or "
                                  "untracked files: {files}.\nCommit or stash them before "
                                  "merging the session's changes, to avoid losing data"),
                               root=root, files=named_files(dirty),
                               details={"root": root, "files": dirty})
    return branch, into


def check_session_branch(project: Project, record: SessionRecord) -> str:
    """The session's branch, for a finished isolated session whose branch exists."""
    if not record.is_isolated or not project.is_git:
        raise NotFoundError(N_("session '{id}' ran in direct mode and has no isolated worktree "
                               "branch to merge"),
                            id=record.id, details={"id": record.id})
    if record.is_running:
        raise ConflictError(N_("session '{id}' is still running (PID {pid}); wait for it to "
                               "finish or stop it with 'gz-ia session kill {id}'"),
                            id=record.id, pid=record.pid,
                            details={"id": record.id, "pid": record.pid})
    branch = branch_for(record.id)
    if not branch_exists(project.root, branch):
        raise NotFoundError(N_("session '{id}': branch '{branch}' does not exist"), id=record.id,
                            branch=branch,
                            details={"id": record.id, "branch": branch})
    return branch


NAMED_FILES = 10
"""How many files an error names before it counts the rest."""


def named_files(files: list[str]) -> str:
    """``a, b, c`` or, past :data:`NAMED_FILES`, ``a, ..., j and 5 more``."""
    named = ", ".join(files[:NAMED_FILES])
    rest = len(files) - NAMED_FILES
    if rest <= 0:
        return named
    return ngettext("{files} and {count} more", "{files} and {count} more", rest, files=named)


def _refuse_detached_base(project: Project, record: SessionRecord) -> str:
    """The checked-out branch; a detached HEAD is refused: no branch would hold the
    merge, and a later ``session delete`` would drop the only copy of the work."""
    into = current_branch(project.base)
    if into is not None:
        return into
    root, head = str(project.base), (rev_parse(project.base, "HEAD") or "HEAD")[:12]
    base = record.base_branch
    raise SafetyBlockError(
        N_("the base repository ('{root}') has no branch checked out (detached HEAD at {head}); no "
           "branch would keep the merged work. Nothing was changed"),
        id=record.id, root=root, head=head, branch=base,
        hint_key=(N_("check out the branch to merge into (git -C {root} switch {branch}), then run "
                     "gz-ia session merge {id} again")
                  if base else N_("check out the branch to merge into (git -C {root} switch "
                                  "<branch>), then run gz-ia session merge {id} again")),
        details={"id": record.id, "root": root, "head": head, "base_branch": base})


_IN_PROGRESS = {"MERGE_HEAD": "merge", "CHERRY_PICK_HEAD": "cherry-pick",
                "REVERT_HEAD": "revert", "rebase-merge": "rebase", "rebase-apply": "rebase"}


def _refuse_operation_in_progress(project: Project) -> None:
    """A merge, rebase... the user has not finished is theirs: never continue or abort it."""
    operation = _operation_in_progress(_base_git_dir(project))
    if operation is not None:
        root = str(project.base)
        raise SafetyBlockError(N_("the base repository ('{root}') has a {operation} in progress; "
                                  "finish or abort it before merging the session"),
                               root=root, operation=operation,
                               details={"root": root, "operation": operation})


def _base_git_dir(project: Project) -> Path | None:
    """The base's own git dir: the common one for the main worktree, else its own."""
    if project.base == project.root:
        return project.git_common_dir
    return Path(git_ok(["rev-parse", "--absolute-git-dir"], project.base).strip())


def _operation_in_progress(git_dir: Path | None) -> str | None:
    for name, operation in _IN_PROGRESS.items():
        if git_dir is not None and (git_dir / name).exists():
            return operation
    return None


def refuse_unsettled_worktree(project: Project, session_id: str, branch: str) -> None:
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
            N_("the worktree of session '{id}' ({root}) has a {operation} in progress; finish or "
               "abort it there before merging the session"),
            id=session_id, root=str(worktree),
            operation=operation,
            details={"id": session_id, "worktree": str(worktree), "operation": operation})
    checked_out = current_branch(worktree) or (rev_parse(worktree, "HEAD") or "HEAD")[:12]
    if checked_out != branch:
        raise SafetyBlockError(
            N_("the worktree of session '{id}' is not on its branch {branch} ({checked_out} is "
               "checked out); nothing was changed"),
            id=session_id, branch=branch,
            checked_out=checked_out, worktree=str(worktree),
            hint_key=N_("switch it back (git -C {worktree} switch {branch}), then run gz-ia "
                        "session merge {id} again"),
            details={"id": session_id, "branch": branch, "checked_out": checked_out,
                     "worktree": str(worktree)},
        )


def dirty_worktree(project: Project, session_id: str) -> Path | None:
    worktree = worktree_for(project, session_id)
    if not (worktree / ".git").is_file():
        return None
    return worktree if changed_paths(worktree, ignore_dirs=HARNESS_PATHS) else None


def snapshot(worktree: Path, leave_out: Sequence[str] = ()) -> str:
    """A commit of the worktree as it is, made through a private index (nothing moves);
    ``leave_out``: paths that stay as HEAD has them (a projection still in place)."""
    with tempfile.TemporaryDirectory(prefix="gzia-merge-") as scratch:
        env = private_index(worktree, Path(scratch))
        git_ok(["add", "-A"], worktree, env=env)
        if leave_out:
            git_ok(["reset", "-q", "--", *(f":(top,literal){p}" for p in leave_out)],
                   worktree, env=env)
        tree = git_ok(["write-tree"], worktree, env=env).strip()
    done = commit_with_fallback_identity(["commit-tree", tree, "-p", "HEAD", "-m", "snapshot"],
                                         worktree)
    if not done.ok:
        raise git_failure(done)
    return done.stdout.strip()


def refuse_conflicts(project: Project, session_id: str, branch: str, tip: str, *,
                     worktree: Path | None = None) -> None:
    """``CONFLICT`` naming the files. ``worktree``: the session's, when it has uncommitted
    work; the hint then names the files that ``git merge <base>`` there would refuse to
    overwrite, to be committed first."""
    done = run_git(["merge-tree", "--write-tree", "-z", "--name-only", "HEAD", tip],
                   project.base)
    if done.returncode == 0:
        return
    if done.returncode != 1:
        raise git_failure(done)
    files = conflicted_files(done.stdout)
    base = current_branch(project.base) or "HEAD"  # a detached base was refused before
    blocking = _uncommitted_in_the_way(project, branch, worktree) if worktree else []
    hint = N_("git merge would refuse to overwrite uncommitted files in the worktree "
              "({uncommitted}): commit them there first (or remove them), then resolve in the "
              "worktree (git merge {base} there) "
              "and run gz-ia session merge {id}") if blocking else (
        N_("resolve in the worktree (git merge {base} there), then run gz-ia session merge {id}"))
    raise ConflictError(
        NN_("merging session '{id}' would conflict in {count} file: {files}. Nothing was changed: "
            "the base and the worktree are intact (inspect with 'gz-ia session path {id}')",
            "merging session '{id}' would conflict in {count} files: {files}. Nothing was changed: "
            "the base and the worktree are intact (inspect with 'gz-ia session path {id}')"),
        id=session_id, count=len(files), files=", ".join(files),
        base=base, hint_key=hint, uncommitted=", ".join(blocking),
        details={"id": session_id, "files": files, "branch": branch,
                 "worktree": str(worktree_for(project, session_id))},
    )


def _uncommitted_in_the_way(project: Project, branch: str, worktree: Path) -> list[str]:
    """The worktree's uncommitted files that the base's changes since the session branched
    touch (the same path, or a file where the other has a directory)."""
    changed = git_ok(["diff", "--name-only", "-z", f"{branch}...HEAD"],
                     project.base).split("\0")
    touched = {name for name in changed if name}
    def in_the_way(path: str) -> bool:
        return any(path == other or path.startswith(f"{other}/") or
                   other.startswith(f"{path}/") for other in touched)
    return [path for path in changed_paths(worktree, ignore_dirs=HARNESS_PATHS)
            if in_the_way(path)]


_OWN_PATHSPECS = (f":(top){HARNESS_DIR}", f":(top){INJECTED_DIR}")


def refuse_injected_files(project: Project, session_id: str, branch: str, tip: str, *,
                           squash: bool) -> None:
    """Refuse when the session's commits carry ``.harness-session/`` or ``.harness/`` files,
    or a path a profile projected into the session's worktree (in any of its runs).

    The exclude entries keep ``git add -A`` away from them, but an agent can still
    force-add an injected MCP configuration (with its token), write into gz-ia's own
    store, or commit a projected file by a route that skips them. A squash brings only
    the final tree; any other merge brings every commit's history.
    """
    files = injected_files(project, session_id, tip, squash=squash)
    if files:
        raise SafetyBlockError(
            N_("session '{id}' committed files that gz-ia injected or owns ({files}); merging "
               "would put them on your branch. Nothing was changed"),
            id=session_id, files=", ".join(files), branch=branch,
            hint_key=N_("remove them from the commits of {branch} in the worktree (gz-ia session "
                        "path {id}), then run gz-ia session merge {id} again"),
            details={"id": session_id, "branch": branch, "files": files},
        )


def injected_files(project: Project, session_id: str, tip: str, *, squash: bool,
                   since: str = "HEAD") -> list[str]:
    """The files of gz-ia's own (see :func:`refuse_injected_files`) that the commits from
    ``since`` to ``tip`` carry (with ``squash``: that the final tree adds)."""
    projected = sorted({*ever_projected(project, session_id),
                        *projected_paths(project, session_id)})
    paths = [*_OWN_PATHSPECS, *(f":(top,literal){path}" for path in projected)]
    if squash:
        args = ["diff", "--name-only", "-z", f"{since}...{tip}", "--", *paths]
    else:
        args = ["log", "--format=", "--name-only", "-z", f"{since}..{tip}", "--", *paths]
    names = git_ok(args, project.base).split("\0")
    return sorted({name.strip("\n") for name in names if name.strip("\n")})


def refuse_overwriting_ignored(project: Project, session_id: str, tip: str) -> None:
    """Refuse when the merge would create files the base has on disk but ignores.

    git treats ignored files as expendable and replaces them without a word: a session
    that commits its own ``.env`` would wipe the user's. (Untracked files that are not
    ignored already made the base count as dirty.)
    """
    added = git_ok(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=A",
                    f"HEAD...{tip}"], project.base).split("\0")
    on_disk = [name for name in added if name and os.path.lexists(project.base / name)]
    if not on_disk:
        return
    tracked = git_ok(["ls-files", "-z", "--", *on_disk], project.base,
                     env={"GIT_LITERAL_PATHSPECS": "1"}).split("\0")
    files = sorted(set(on_disk) - set(tracked))
    if files:
        root = str(project.base)
        raise SafetyBlockError(
            N_("merging session '{id}' would overwrite files git ignores in {root} ({files}); "
               "nothing was changed"),
            id=session_id, root=root,
            files=", ".join(files),
            hint_key=N_("move them aside, or remove them from the session's commits, then run "
                        "gz-ia session merge {id} again"),
            details={"id": session_id, "root": root, "files": files},
        )


def conflicted_files(output: str) -> list[str]:
    """The conflicted paths of ``merge-tree -z --name-only`` (with its messages).

    The output is the tree id, the conflicted paths, an empty entry, then messages: a
    path count, the paths, a type and the text. In a file/directory conflict git lists the
    file under a name of its own (``d~HEAD``), which the same message pairs with the path
    itself (``d``): that path is the one reported.
    """
    entries = output.split("\0")
    end = entries.index("", 1) if "" in entries[1:] else len(entries)
    renamed = _renamed_by_git(entries[end + 1:])
    files: list[str] = []
    for name in entries[1:end]:
        path = renamed.get(name, name)
        if path not in files:
            files.append(path)
    return files


def _renamed_by_git(messages: list[str]) -> dict[str, str]:
    """``{"d~HEAD": "d"}``: names git made up, paired with a path of the same message."""
    renamed: dict[str, str] = {}
    index = 0
    while index < len(messages) and messages[index].isdigit():
        count = int(messages[index])
        paths = messages[index + 1:index + 1 + count]
        for name in paths:
            for path in paths:
                if name.startswith(f"{path}~"):
                    renamed[name] = path
        index += count + 3  # the count, the paths, the type and the text
    return renamed
