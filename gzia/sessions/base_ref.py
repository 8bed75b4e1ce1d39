"""Where a new session branches from: ``--base BRANCH|REF`` and ``--fetch``.

Without either, a session branches from the base work tree's ``HEAD`` (its checked-out
branch, if any), as it always has. ``--base`` names a local branch, a remote-tracking
branch, a tag or a commit. ``--fetch`` first fetches the base branch from its remote (the
branch's upstream remote, else ``origin``) into ``refs/remotes/<remote>/<branch>`` with the
user's own git credentials, and branches from that; ``--fetch`` alone fetches the branch
checked out. Nothing here moves a local branch or touches the work tree: the base is only
read.

The record keeps ``base_branch`` (the branch the work is for: what ``session update`` means
by "the base"), ``base_commit``, and ``base_remote`` when the session was branched from a
fetched or remote-tracking branch (``--base origin/main`` is ``main`` from ``origin``), so
``session update`` fetches it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gzia.contract import InvalidInputError, NetworkError, NotFoundError
from gzia.i18n import N_
from gzia.sessions.git import run_git
from gzia.sessions.project import Project

DEFAULT_REMOTE = "origin"
FETCH_TIMEOUT_S = 300.0
"""A fetch that makes no progress for this long fails (a remote that hangs)."""


@dataclass(frozen=True)
class BaseChoice:
    """What a session branches from."""

    commit: str
    branch: str | None
    """The local branch the session's work is for; ``None`` for a tag or a commit."""
    remote: str | None = None
    """The remote it was fetched from (``--fetch``), else ``None``."""

    @property
    def start_point(self) -> str:
        """What ``session update`` moves onto: the fetched branch, the local one, or the
        commit itself."""
        if self.branch is None:
            return self.commit
        return f"{self.remote}/{self.branch}" if self.remote else self.branch


def choose_base(project: Project, base: str | None, fetch: bool) -> BaseChoice | None:
    """The base asked for; ``None`` when neither ``--base`` nor ``--fetch`` was given (the
    base work tree's ``HEAD``, as before). Raises before anything is created."""
    directory = project.base
    if fetch:
        fetched = base if base is not None else _checked_out_branch(directory)
        remote = fetch_branch(directory, fetched)
        return BaseChoice(_commit_of(directory, f"refs/remotes/{remote}/{fetched}", fetched),
                          fetched, remote)
    if base is None:
        return None
    _refuse_option_like(base)
    commit = _commit_of(directory, base, base)
    if _has_ref(directory, f"refs/heads/{base}"):
        return BaseChoice(commit, base)
    if _has_ref(directory, f"refs/remotes/{base}") and "/" in base:
        remote, _, branch = base.partition("/")  # origin/main: main, as fetched from origin
        return BaseChoice(commit, branch, remote)
    return BaseChoice(commit, None)


def fetch_branch(directory: Path, branch: str, remote: str | None = None) -> str:
    """Fetch ``branch`` from ``remote`` (default: the remote it tracks) into its
    remote-tracking ref; returns the remote."""
    _refuse_option_like(branch)
    remote = remote or upstream_remote(directory, branch)
    refspec = f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}"
    done = run_git(["fetch", "--no-tags", "--quiet", remote, refspec], directory,
                   timeout=FETCH_TIMEOUT_S)
    if not done.ok:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise NetworkError(N_("could not fetch '{branch}' from '{remote}': {detail}"),
                           branch=branch, remote=remote,
                           detail=detail[-1] if detail else "git fetch failed",
                           hint_key=N_("check the remote with: git remote -v; git fetch "
                                       "{remote} {branch}"),
                           details={"branch": branch, "remote": remote})
    return remote


def upstream_remote(directory: Path, branch: str) -> str:
    """The remote ``branch`` tracks (``branch.<name>.remote``), else ``origin``."""
    done = run_git(["config", "--get", f"branch.{branch}.remote"], directory)
    remote = done.stdout.strip() if done.ok else ""
    return remote if remote and remote != "." else DEFAULT_REMOTE


def _refuse_option_like(ref: str) -> None:
    """A ref is never an option to git, nor an empty or multi-line word."""
    if not ref or ref.startswith("-") or any(c in ref for c in "\0\n\r ") or len(ref) > 255:
        raise InvalidInputError(N_("invalid base '{base}': give a branch, a tag or a commit"),
                                base=ref[:80], details={"base": ref[:255]})


def _commit_of(directory: Path, ref: str, shown: str) -> str:
    done = run_git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
                   directory)
    if not done.ok:
        raise NotFoundError(N_("base '{base}' is not a branch, tag or commit of this repository"),
                            base=shown,
                            hint_key=N_("list branches with: git branch -a"),
                            details={"base": shown})
    return done.stdout.strip()


def _has_ref(directory: Path, ref: str) -> bool:
    return run_git(["show-ref", "--verify", "--quiet", ref], directory).ok


def _checked_out_branch(directory: Path) -> str:
    done = run_git(["symbolic-ref", "-q", "--short", "HEAD"], directory)
    branch = done.stdout.strip() if done.ok else ""
    if not branch:
        raise InvalidInputError(N_("--fetch needs a branch: the base work tree has none checked "
                                   "out (detached HEAD); name one with --base"),
                                details={"dir": str(directory)})
    return branch
