"""Finding the project a command works on, from any directory inside it.

The project root is the MAIN worktree of the git repository containing the directory,
found through git's common directory, so a command run inside a session worktree
(``.harness/worktrees/<id>``) or any linked worktree still reaches the one store. A
directory outside any git work tree is its own project: sessions there run in direct mode
when asked (:func:`gzia.sessions.workspace.refuse_unasked_direct`). Without git installed,
a directory inside a repository is an error, never a project of its own. A directory
inside git's own directory (``.git``, ``.git/refs``, a linked worktree's git dir) belongs
to the repository's main worktree; inside a bare repository, which has no work tree, it is
an error: nothing of gz-ia's is ever created inside a git directory.

The BASE is the work tree new sessions branch from and ``session merge`` merges into: the
top of the work tree containing the directory when that is the main worktree or a linked
worktree of the user's, and the main worktree itself when the directory is in a session
worktree (anything under ``<root>/.harness/``), inside git's own directory, or outside git.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from gzia.contract import InvalidInputError, NotFoundError
from gzia.i18n import N_
from gzia.sessions.git import git_installed, run_git

_MSG_HINT: dict[object, str] = {
    N_("'{dir}' is inside git's own directory {git_dir}, and gz-ia cannot tell which work "
       "tree it belongs to; sessions never run inside a git directory"):
        N_("run gz-ia from the repository's work tree, or name it with -d <work tree>"),
    N_("'{dir}' is inside the bare git repository {git_dir}, which has no work tree for "
       "sessions to run in"):
        N_("run gz-ia in a clone or a worktree of it (git -C {git_dir} worktree add <path>)"),
}

HARNESS_DIR = ".harness"


@dataclass(frozen=True)
class Project:
    root: Path
    is_git: bool
    git_common_dir: Path | None = None
    base_root: Path | None = None
    """A linked worktree of the user's that is the base; ``None``: the root itself."""

    @property
    def base(self) -> Path:
        """The work tree sessions branch from and merge into (see the module's doc)."""
        return self.base_root if self.base_root is not None else self.root

    @property
    def harness_dir(self) -> Path:
        return self.root / HARNESS_DIR

    @property
    def sessions_dir(self) -> Path:
        return self.harness_dir / "sessions"

    @property
    def worktrees_dir(self) -> Path:
        return self.harness_dir / "worktrees"

    @property
    def logs_dir(self) -> Path:
        return self.harness_dir / "logs"


def find_project(directory: str | Path | None = None) -> Project:
    """The project containing ``directory`` (default: the current directory)."""
    start = Path(directory).expanduser() if directory is not None else _current_directory()
    if not start.is_dir():
        key = (N_("'{dir}' is not a directory")
               if start.exists() else N_("directory '{dir}' does not exist"))
        raise InvalidInputError(key, dir=str(start), details={"dir": str(start)})
    start = start.resolve()
    if not git_installed():
        _refuse_repository_without_git(start)
        return Project(root=start, is_git=False)
    located = _locate_on_disk(start)
    if located is _ASK_GIT:
        located = _locate_in_git(start)
    if not isinstance(located, Project):
        return Project(root=start, is_git=False)
    return located


def _refuse_repository_without_git(start: Path) -> None:
    """git is missing: a directory inside a git repository (seen on disk) is ``NOT_FOUND``,
    never a project of its own (that would run agents straight in the user's work tree and
    keep a second store there)."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists() or _looks_like_git_dir(directory):
            raise NotFoundError(N_("git is not installed (not found on PATH), and '{dir}' is in "
                                   "the git repository {root}: its sessions need git"),
                                dir=str(start), root=str(directory),
                                hint_key=N_("install git 2.38 or newer"),
                                details={"dir": str(start), "root": str(directory)})


def _current_directory() -> Path:
    try:
        return Path.cwd()
    except FileNotFoundError:  # removed under us, e.g. a worktree that session delete removed
        gone = os.environ.get("PWD") or "."
        raise InvalidInputError(N_("directory '{dir}' does not exist"), dir=gone,
                                details={"dir": gone}) from None


class _AskGit:
    """The layout is unusual: let ``git rev-parse`` decide."""


_ASK_GIT = _AskGit()
_DISCOVERY_VARIABLES = ("GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")


def _locate_on_disk(start: Path) -> Project | _AskGit | None:
    """The common layouts, read from disk without starting git (``session list`` is hot).

    A ``.git`` directory is a main worktree; a ``.git`` file naming a linked worktree's
    git dir leads, through its ``commondir``, to the main one. Anything else (inside a
    ``.git`` dir or a bare repository, discovery limits in the environment, odd files)
    is left to git.
    """
    if ".git" in start.parts or any(os.environ.get(v) for v in _DISCOVERY_VARIABLES):
        return _ASK_GIT
    for directory in (start, *start.parents):
        dotgit = directory / ".git"
        if dotgit.is_dir():
            if (dotgit / "commondir").exists() or not (dotgit / "HEAD").is_file():
                return _ASK_GIT
            return Project(root=directory, is_git=True, git_common_dir=dotgit)
        if dotgit.is_file():
            located = _from_gitdir_file(directory, dotgit)
            return located if isinstance(located, _AskGit) else _with_base(located, directory)
        if _looks_like_git_dir(directory):
            return _ASK_GIT  # a bare repository, or a git dir not named .git
    return None


def _looks_like_git_dir(directory: Path) -> bool:
    """git's own test for a repository directory: ``HEAD``, ``objects/`` and ``refs/``."""
    return ((directory / "HEAD").is_file() and (directory / "objects").is_dir()
            and (directory / "refs").is_dir())


def _from_gitdir_file(directory: Path, dotgit: Path) -> Project | _AskGit:
    try:
        text = dotgit.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return _ASK_GIT
    if not text.startswith("gitdir: "):
        return _ASK_GIT
    git_dir = (directory / text.removeprefix("gitdir: ")).resolve()
    commondir = git_dir / "commondir"
    if not commondir.is_file():
        return _ASK_GIT  # a submodule or --separate-git-dir main worktree
    common = (git_dir / commondir.read_text(encoding="utf-8").strip()).resolve()
    if common.name == ".git" and (common.parent / ".git").is_dir():
        return Project(root=common.parent, is_git=True, git_common_dir=common)
    return _ASK_GIT


def _locate_in_git(start: Path) -> Project | None:
    done = run_git(
        ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir",
         "--git-dir"],
        start,
    )
    lines = done.stdout.splitlines()
    if not done.ok or len(lines) != 3:
        return _from_inside_git_dir(start)
    toplevel, common_dir, git_dir = (Path(line) for line in lines)
    if common_dir == git_dir:
        return Project(root=toplevel, is_git=True, git_common_dir=common_dir)
    project = Project(root=_main_worktree(common_dir, toplevel), is_git=True,
                      git_common_dir=common_dir)
    return _with_base(project, toplevel)


def _with_base(project: Project, toplevel: Path) -> Project:
    """``project`` with ``toplevel`` (a linked worktree's top) as its base, unless that is
    the root itself or one of gz-ia's session worktrees (under ``<root>/.harness/``)."""
    if toplevel == project.root or _is_within(toplevel, project.harness_dir):
        return project
    return replace(project, base_root=toplevel)


def _main_worktree(common_dir: Path, fallback: Path) -> Path:
    """The main worktree of a repository seen from one of its linked worktrees."""
    if common_dir.name == ".git" and (common_dir.parent / ".git").is_dir():
        return common_dir.parent
    # git cannot name the main worktree (e.g. ``--separate-git-dir``): stay where we are.
    return _named_main_worktree(common_dir) or fallback


def _from_inside_git_dir(start: Path) -> Project | None:
    """``start`` is not in a work tree: inside a git dir, the main worktree's project.

    ``None`` outside any repository (direct mode). A bare repository, or a git dir whose
    work tree git cannot name (``--separate-git-dir``), is ``INVALID_INPUT``: direct mode
    there would write ``.harness/`` into git's own directory.
    """
    done = run_git(["rev-parse", "--path-format=absolute", "--is-inside-git-dir",
                    "--is-bare-repository", "--git-common-dir"], start)
    lines = done.stdout.splitlines()
    if not done.ok or len(lines) != 3 or lines[0] != "true":
        return None
    bare, common_dir = lines[1] == "true", Path(lines[2])
    main = None if bare else _named_main_worktree(common_dir)
    located = _locate_in_git(main) if main is not None else None
    if located is None or _is_within(located.root, common_dir):
        key = (N_("'{dir}' is inside the bare git repository {git_dir}, which has no work tree for "
                  "sessions to run in")
               if bare else N_("'{dir}' is inside git's own directory {git_dir}, and gz-ia cannot "
                               "tell which work tree it belongs to; sessions never run inside a "
                               "git directory"))
        raise InvalidInputError(key, hint_key=_MSG_HINT[key], dir=str(start),
                                git_dir=str(common_dir),
                                details={"dir": str(start), "git_dir": str(common_dir),
                                         "bare": bare})
    return located


def _named_main_worktree(common_dir: Path) -> Path | None:
    """The main worktree git lists for a repository, if it is one (has a ``.git``)."""
    done = run_git(["worktree", "list", "--porcelain"], common_dir)
    first = done.stdout.split("\n\n", 1)[0].splitlines() if done.ok else []
    if not first or not first[0].startswith("worktree ") or "bare" in first:
        return None
    main = Path(first[0].removeprefix("worktree "))
    return main if (main / ".git").exists() and main.is_dir() else None


def _is_within(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents
