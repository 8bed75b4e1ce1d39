"""Running git for the session code: a clean environment and one error shape.

Git runs with ``LC_ALL=C`` so its messages can be recognised, without prompts, and
without the ``GIT_DIR``-style variables a calling hook may have set (they would point
git at another repository). Nothing here changes any git configuration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import IOFailure
from gzia.i18n import N_

if TYPE_CHECKING:
    from gzia import proc

_INHERITED_GIT_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_PREFIX",
    "GIT_NAMESPACE",
)
FALLBACK_IDENTITY = ("-c", "user.name=gz-ia", "-c", "user.email=gz-ia@localhost")


def git_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_GIT_VARIABLES}
    env["LC_ALL"] = "C"
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    return env


def run_git(
    args: Sequence[str],
    cwd: str | Path,
    *,
    env: Mapping[str, str] | None = None,
    input_text: str | None = None,
    outlive_caller: bool = False,
    pass_fds: Sequence[int] = (),
    timeout: float | None = None,
) -> proc.Completed:
    """Run ``git <args>`` in ``cwd``; never raises for a non-zero exit.

    ``outlive_caller`` and ``pass_fds``: see :func:`gzia.proc.run` (a git command that
    changes the base runs to its end even if gz-ia is killed, holding gz-ia's lock);
    ``timeout``: seconds, else :data:`gzia.proc.DEFAULT_TIMEOUT`."""
    from gzia import proc  # lazy: start-up speed (finding the project needs no git)

    return proc.run(
        ["git", *args], cwd=cwd, env=git_environment(env), input_text=input_text,
        outlive_caller=outlive_caller, pass_fds=pass_fds,
        timeout=proc.DEFAULT_TIMEOUT if timeout is None else timeout,
    )


def git_ok(args: Sequence[str], cwd: str | Path, *, env: Mapping[str, str] | None = None) -> str:
    """Run git and return its stdout; a non-zero exit is an ``IO`` error naming the command."""
    done = run_git(args, cwd, env=env)
    if not done.ok:
        raise git_failure(done)
    return done.stdout


def git_failure(done: proc.Completed) -> IOFailure:
    detail = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
    return IOFailure(
        N_("'{command}' failed: {detail}"),
        command=" ".join(done.argv),
        detail=detail,
        details={"argv": list(done.argv), "exit_code": done.returncode, "output": detail},
    )


@cache
def git_installed() -> bool:
    from shutil import which

    return which("git") is not None


def identity_missing(cwd: str | Path) -> bool:
    """git knows no committer identity here (``git commit`` would refuse): the commits of
    :func:`commit_with_fallback_identity` are then made as gz-ia."""
    return not run_git(["var", "GIT_COMMITTER_IDENT"], cwd).ok


def commit_with_fallback_identity(
    args: Sequence[str], cwd: str | Path, *, env: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] | None = None,
) -> proc.Completed:
    """``git commit``-like command; when git knows no identity, retry as gz-ia.

    The fallback identity is given with ``-c`` for this one command only: the user's
    configuration is never written. With ``pass_fds`` (the base's lock) the command
    outlives a killed gz-ia: see :func:`run_git`.
    """
    detached, fds = pass_fds is not None, pass_fds or ()
    done = run_git(args, cwd, env=env, outlive_caller=detached, pass_fds=fds)
    if not done.ok and _missing_identity(done):
        done = run_git([*FALLBACK_IDENTITY, *args], cwd, env=env, outlive_caller=detached,
                       pass_fds=fds)
    return done


def _missing_identity(done: proc.Completed) -> bool:
    text = (done.stderr + done.stdout).lower()
    return any(
        marker in text
        for marker in ("user.name", "user.email", "tell me who you are", "empty ident")
    )


def changed_paths(directory: str | Path, *, ignore_dirs: tuple[str, ...] = ()) -> list[str]:
    """Modified, staged and untracked paths of a work tree (``git status``, all files).

    Paths equal to or inside one of ``ignore_dirs`` (top-level names) are left out;
    ``.harnessrc`` is not inside ``.harness``.

    ``--no-optional-locks`` keeps git from refreshing (writing) the index, so this is
    safe while an agent works in the same tree.
    """
    output = git_ok(
        ["--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all"],
        directory,
    )
    ignored = tuple(f"{name}/" for name in ignore_dirs)
    paths, entries = [], output.split("\0")
    index = 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) < 4:
            continue
        if entry[0] in "RC":
            index += 1  # the rename's source path follows
        path = entry[3:]
        if path not in ignore_dirs and not path.startswith(ignored):
            paths.append(path)
    return paths


@dataclass(frozen=True)
class IndexFile:
    """An index file's bytes and its timestamps, read from one open file.

    git trusts a file's stat data unless the file changed in the same second the index
    was written ("racily clean": then it reads the file). An index copied or written back
    with a new timestamp would make git trust stale stat data and miss an edit made in
    the second of a checkout, so the timestamps always travel with the bytes.
    """

    content: bytes
    atime_ns: int
    mtime_ns: int

    @classmethod
    def read(cls, path: Path) -> IndexFile | None:
        """The index at ``path``; None when there is none. Git replaces its index by
        rename, so this is a consistent snapshot even while git runs in that worktree."""
        try:
            with path.open("rb") as handle:
                info = os.fstat(handle.fileno())
                return cls(handle.read(), info.st_atime_ns, info.st_mtime_ns)
        except FileNotFoundError:
            return None

    def write(self, fd: int) -> None:
        """Write it into the open file ``fd``, then give that file its timestamps."""
        view = memoryview(self.content)
        while view:
            view = view[os.write(fd, view):]
        os.utime(fd, ns=(self.atime_ns, self.mtime_ns))


def index_path(worktree: str | Path) -> Path:
    return Path(git_ok(["rev-parse", "--path-format=absolute", "--git-path", "index"],
                       worktree).strip())


def private_index(worktree: str | Path, scratch: Path) -> dict[str, str]:
    """Environment for git commands on a private copy of a worktree's index (its
    timestamps kept: see :class:`IndexFile`); the worktree's own index is never written."""
    private = scratch / "index"
    saved = IndexFile.read(index_path(worktree))
    if saved is not None:
        fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            saved.write(fd)
        finally:
            os.close(fd)
    return {"GIT_INDEX_FILE": str(private)}


def is_ancestor(directory: str | Path, ancestor: str, descendant: str) -> bool:
    return run_git(["merge-base", "--is-ancestor", ancestor, descendant], directory).ok


def holds_work_of(directory: str | Path, base: str, tip: str) -> bool:
    """Whether ``base`` already holds the work of ``tip``: ``tip`` is merged into it, or
    merging it would leave ``base``'s tree as it is (a squash merge, work merged by hand).
    A conflict, or git failing, is "no"."""
    if is_ancestor(directory, tip, base):
        return True
    done = run_git(["merge-tree", "--write-tree", base, tip], directory)
    merged_tree = done.stdout.split("\n", 1)[0].strip() if done.ok else None
    return merged_tree is not None and merged_tree == rev_parse_tree(directory, base)


def rev_parse_tree(directory: str | Path, rev: str) -> str | None:
    done = run_git(["rev-parse", "--verify", "--quiet", f"{rev}^{{tree}}"], directory)
    return done.stdout.strip() if done.ok else None


def commits_on_no_branch(directory: str | Path, tips: Sequence[str], *,
                         except_branch: str | None = None) -> int:
    """How many commits reachable from ``tips`` no branch holds (``except_branch`` not
    counted as one: it is about to go); git failing is ``IO``, never "none"."""
    if not tips:
        return 0
    excluded = [f"--exclude={except_branch}"] if except_branch else []
    done = run_git(["rev-list", "--count", *tips, "--not", *excluded, "--branches"],
                   directory)
    if not done.ok:
        raise git_failure(done)
    return int(done.stdout.strip() or 0)


def rev_parse(directory: str | Path, rev: str) -> str | None:
    done = run_git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], directory)
    return done.stdout.strip() if done.ok else None


def hooks_present(directory: str | Path, names: Sequence[str]) -> list[str]:
    """Which of the hooks ``names`` git would run in ``directory`` (``core.hooksPath``
    included): the executable files among them."""
    done = run_git(["rev-parse", "--path-format=absolute", "--git-path", "hooks"], directory)
    if not done.ok:
        return []
    hooks = Path(done.stdout.strip())
    return [name for name in names
            if (hooks / name).is_file() and os.access(hooks / name, os.X_OK)]


def branch_tips(directory: str | Path) -> dict[str, str]:
    """Every local branch's short name and commit, read in one git call."""
    done = run_git(["for-each-ref", "--format=%(objectname) %(refname:short)", "refs/heads/"],
                   directory)
    if not done.ok:
        raise git_failure(done)
    pairs = (entry.split(" ", 1) for entry in done.stdout.splitlines() if " " in entry)
    return {name: commit for commit, name in pairs}


def ahead_behind(directory: str | Path, base: str, tip: str) -> tuple[int, int] | None:
    """Commits ``tip`` has that ``base`` lacks, and the other way round (None: git cannot
    tell, an unknown commit say)."""
    done = run_git(["rev-list", "--left-right", "--count", f"{tip}...{base}"], directory)
    counts = done.stdout.split() if done.ok else []
    return (int(counts[0]), int(counts[1])) if len(counts) == 2 else None
