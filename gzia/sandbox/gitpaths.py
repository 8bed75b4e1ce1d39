"""The smallest part of a repository's git directory that ``git commit`` in one session
worktree writes, and what next to it must stay read-only.

A commit on branch ``harness/<id>`` in a linked worktree writes:

* ``objects/`` (the new blobs, trees and the commit);
* the worktree's own admin directory ``worktrees/<name>/`` (its ``HEAD``, ``index``,
  ``logs/HEAD``, ``COMMIT_EDITMSG``, ``ORIG_HEAD``);
* its branch's loose ref, ``refs/heads/harness/<id>``, which git replaces by renaming
  ``<id>.lock`` onto it: so the ref's directory ``refs/heads/harness/`` is writable;
* the branch's reflog, ``logs/refs/heads/harness/<id>`` (appended), in
  ``logs/refs/heads/harness/``.

Every other entry of those two directories (the other sessions' branches and reflogs) is
bound read-only over itself: renaming onto it or removing it fails. Everything else of the
git directory (``config``, ``packed-refs``, ``HEAD``, the other refs and hooks) stays
read-only, so no other branch can move and no configuration can change.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gzia import proc
from gzia.contract import IOFailure
from gzia.i18n import N_


@dataclass(frozen=True)
class GitPaths:
    writable: tuple[Path, ...]
    protected: tuple[Path, ...]
    """Entries inside ``writable`` directories bound read-only again (other branches)."""


def commit_paths(worktree: Path, branch: str) -> GitPaths:
    """The git paths a commit on ``branch`` in ``worktree`` needs (see the module)."""
    common, admin = _git_dirs(worktree)
    ref_dir = (common / "refs" / "heads" / branch).parent
    log_dir = (common / "logs" / "refs" / "heads" / branch).parent
    own = Path(branch).name
    for directory in (ref_dir, log_dir):
        directory.mkdir(parents=True, exist_ok=True)  # a packed branch has no loose ref
    protected = [entry for directory in (ref_dir, log_dir) for entry in _others(directory, own)]
    return GitPaths((common / "objects", admin, ref_dir, log_dir), tuple(protected))


def _git_dirs(worktree: Path) -> tuple[Path, Path]:
    done = proc.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir",
                     "--git-dir"], cwd=worktree, env=_git_env(), timeout=30)
    lines = done.stdout.splitlines()
    if not done.ok or len(lines) != 2:
        raise IOFailure(N_("cannot find the git directories of '{path}' for its sandbox: "
                           "{detail}"), path=str(worktree),
                        detail=(done.stderr.strip() or done.stdout.strip()))
    return Path(lines[0]), Path(lines[1])


def _others(directory: Path, own: str) -> list[Path]:
    return sorted(entry for entry in directory.iterdir()
                  if entry.name not in (own, f"{own}.lock"))


def _git_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    return env
