"""The git commands of ``session merge`` that change the base, each one all or nothing.

A SIGKILL of gz-ia at any moment must leave the base untouched or fully merged. So the
base is changed by exactly one git command, which runs in its own session with its output
in files (never a pipe that dies with gz-ia) and holds the base's merge lock until it
ends (:func:`gzia.proc.run`, ``outlive_caller``):

- a merge: ``git merge --no-stat -q`` makes the merge commit and moves the branch;
- a squash: the commit is built beside the base first: the merged tree in a private
  index under ``.harness/``, the project's commit hooks run on it (``pre-commit``,
  ``prepare-commit-msg``, ``commit-msg``, as ``git commit`` runs them, with
  ``GIT_INDEX_FILE`` naming that index), ``git commit-tree`` on the base's HEAD; then one
  ``git merge --ff-only`` moves the base to it (``post-commit`` runs afterwards). Until
  then the base's index, files and branch are untouched: no ``SQUASH_MSG`` and no staged
  files are ever left behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from gzia import proc
from gzia.contract import GzError, InvalidInputError, SafetyBlockError
from gzia.i18n import N_
from gzia.sessions.git import (
    commit_with_fallback_identity,
    git_failure,
    git_ok,
    hooks_present,
    run_git,
)
from gzia.sessions.naming import commit_subject
from gzia.sessions.record import SessionRecord

_MSG_HINT: dict[object, str] = {
    N_("a git hook ({hooks}) refused the commit of the uncommitted work in the worktree of "
       "session '{id}' ({worktree}); nothing was changed. The hook said: {output}"):
        N_("fix what the hook reports in the worktree and commit there yourself, then run "
           "gz-ia session merge {id} again"),
    N_("a git hook ({hooks}) refused the merge commit of session '{id}' in {root}; the base "
       "and the worktree are back as they were. The hook said: {output}"):
        N_("fix what the hook asks for, or run gz-ia session merge {id} --no-commit and "
           "commit yourself"),
}

COMMIT_HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg")
MERGE_HOOKS = ("pre-merge-commit", "prepare-commit-msg", "commit-msg")
GIT_ADVICE = frozenset({"Not committing merge; use 'git commit' to complete the merge."})
"""git's advice after a refused merge commit: wrong once the merge is undone."""
REFUSED_KEY = N_("a git hook ({hooks}) refused the merge commit of session '{id}' in {root}; the "
                 "base and the worktree are back as they were. The hook said: {output}")
SQUASH_SCRATCH = "merge-squash"
"""Name of the private index and message files under ``.harness/`` (one merge at a time)."""


def commit_refused(done: proc.Completed, cwd: Path, hooks: tuple[str, ...], key: str,
                   **params: str) -> GzError:
    """A failed commit: a refusal by the project's hooks when it has any, else git's error."""
    present = hooks_present(cwd, hooks)
    if not present:
        return git_failure(done)
    lines = (done.stderr or done.stdout).strip().splitlines()
    output = "\n".join(line for line in lines if line not in GIT_ADVICE).strip()
    output = output or f"exit status {done.returncode}"
    return SafetyBlockError(
        key, hooks=", ".join(present), output=output, hint_key=_MSG_HINT[key], **params,
        details={**params, "hooks": present, "output": output, "exit_code": done.returncode})


def merge_message(record: SessionRecord, message: str | None, *, squash: bool) -> str:
    """``-m`` as given; else the session's :func:`~gzia.sessions.naming.commit_subject`
    (``merge session changes`` when nothing names it), `` (squash)`` added for a squash."""
    if message is not None:
        if not message.strip():
            raise InvalidInputError(N_("the merge commit message is empty"),
                                    details={"option": "--message"})
        return message
    return commit_subject(record, "merge session changes", " (squash)" if squash else "")


def merge_branch(root: Path, session_id: str, branch: str, lock_fd: int, *, message: str,
                 no_ff: bool = False) -> None:
    """A merge commit (or, unless ``no_ff``, a fast-forward, which makes no commit and so
    drops ``message``) of ``branch`` into the base, in one git command."""
    done = commit_with_fallback_identity(
        ["merge", "--no-stat", "-q", "--no-edit", *(["--no-ff"] if no_ff else []),
         "-m", message, branch], root, pass_fds=(lock_fd,))
    if not done.ok:  # the caller's rollback puts the base back
        fast_forward = run_git(["merge-base", "--is-ancestor", "HEAD", branch], root).ok
        hooks = () if fast_forward else MERGE_HOOKS  # a fast-forward runs no commit hook
        raise commit_refused(done, root, hooks, REFUSED_KEY, id=session_id, root=str(root))


def squash_branch(root: Path, scratch: Path, session_id: str, branch: str,
                  lock_fd: int, *, message: str) -> None:
    """One squash commit of ``branch`` on the base, built before the base is touched."""
    commit = _build_squash_commit(root, scratch, branch, message,
                                  {"id": session_id, "root": str(root)})
    moved = run_git(["merge", "--ff-only", "--no-stat", "-q", commit], root,
                    outlive_caller=True, pass_fds=(lock_fd,))
    if not moved.ok:
        raise git_failure(moved)
    if hooks_present(root, ("post-commit",)):
        run_git(["hook", "run", "--ignore-missing", "post-commit"], root)  # status ignored


def _build_squash_commit(root: Path, scratch: Path, branch: str, message: str,
                         params: dict[str, str]) -> str:
    """The squash commit as ``git commit`` would make it, without touching the base."""
    message = message.rstrip("\n") + "\n"
    with _scratch_files(scratch) as (index, message_file):
        hook_env = {"GIT_INDEX_FILE": str(index), "GIT_EDITOR": ":"}
        tree = git_ok(["merge-tree", "--write-tree", "HEAD", branch], root).split("\n", 1)[0]
        git_ok(["read-tree", tree.strip()], root, env=hook_env)
        _run_commit_hook(root, hook_env, params, "pre-commit")
        tree = git_ok(["write-tree"], root, env=hook_env).strip()  # as the hook left it
        message_file.write_text(message, encoding="utf-8")
        _run_commit_hook(root, hook_env, params, "prepare-commit-msg", str(message_file),
                         "squash")
        _run_commit_hook(root, hook_env, params, "commit-msg", str(message_file))
        cleaned = run_git(["stripspace"], root, input_text=message_file.read_text("utf-8"))
        message_file.write_text(cleaned.stdout, encoding="utf-8")
        made = commit_with_fallback_identity(
            ["commit-tree", tree, "-p", "HEAD", "-F", str(message_file)], root)
    if not made.ok:
        raise git_failure(made)
    return made.stdout.strip()


def _run_commit_hook(root: Path, env: dict[str, str], params: dict[str, str], name: str,
                     *args: str) -> None:
    """Run the project's hook ``name`` if it has one (``git hook run``: git 2.36 or later
    is needed only when it does)."""
    if not hooks_present(root, (name,)):
        return
    done = run_git(["hook", "run", "--ignore-missing", name, "--", *args], root, env=env)
    if not done.ok:
        raise commit_refused(done, root, (name,), REFUSED_KEY, **params)


@contextlib.contextmanager
def _scratch_files(scratch: Path) -> Iterator[tuple[Path, Path]]:
    """The private index and message file; removed afterwards (a kill leaves them for the
    next merge, which overwrites them)."""
    scratch.mkdir(parents=True, exist_ok=True)
    index, message = scratch / f"{SQUASH_SCRATCH}.index", scratch / f"{SQUASH_SCRATCH}.msg"
    index.unlink(missing_ok=True)
    message.unlink(missing_ok=True)  # a link planted there is removed, never written through
    try:
        yield index, message
    finally:
        index.unlink(missing_ok=True)
        message.unlink(missing_ok=True)
