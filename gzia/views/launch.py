"""What a run says as its agent starts: the launch warnings and the launch lines, the
same for ``gz-ia chat``, ``exec``, ``resume`` and the terminal UI's new session."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gzia.contract import Problem, WarningCode
from gzia.i18n import gettext, ngettext
from gzia.sessions.workspace import uncommitted_in_base
from gzia.views.words import permission_text

if TYPE_CHECKING:
    from gzia.contract import Permission
    from gzia.drivers.base import Driver
    from gzia.sessions.workspace import Workspace

LISTED_FILES = 20
"""How many of the base's uncommitted files a warning lists in ``details.files``."""


def launch_warnings(workspace: Workspace, *, base_changes: bool = True) -> list[Problem]:
    """The guardrails that are off, and (``base_changes``) the base's uncommitted files
    a new session does not get."""
    found = [unguarded_warning(workspace)]
    if base_changes:
        found.append(base_changes_warning(workspace))
    return [problem for problem in found if problem is not None]


def unguarded_warning(workspace: Workspace) -> Problem | None:
    """The agent runs without the git guardrails (git too old for them)."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sessions.guard import MINIMUM_GIT, git_too_old

    version = git_too_old() if workspace.is_isolated else None
    if version is None:
        return None
    minimum = ".".join(map(str, MINIMUM_GIT))
    return Problem(WarningCode.GUARDRAILS_OFF,
                   gettext("git {version} is older than {minimum}: the session runs without "
                           "its guardrails (pushes and ref updates outside its branch are not "
                           "refused)", version=version, minimum=minimum),
                   details={"git_version": version, "minimum": minimum})


def base_changes_warning(workspace: Workspace) -> Problem | None:
    """The base has uncommitted changes that a new session does not get."""
    paths = uncommitted_in_base(workspace)
    if not paths:
        return None
    base = str(workspace.base_dir or workspace.working_dir)
    commit = (workspace.base_commit or "HEAD")[:12]
    return Problem(WarningCode.UNCOMMITTED_CHANGES,
                   ngettext("{count} uncommitted change in {base} is not in the session: it "
                            "starts from the last commit ({commit}); commit it first to include "
                            "it",
                            "{count} uncommitted changes in {base} are not in the session: it "
                            "starts from the last commit ({commit}); commit them first to "
                            "include them",
                            len(paths), base=base, commit=commit),
                   details={"base": base, "base_commit": workspace.base_commit,
                            "count": len(paths), "files": paths[:LISTED_FILES]})


def workspace_label(workspace: Workspace) -> str:
    if workspace.is_isolated and workspace.base_dir is not None:  # a linked worktree's
        base = workspace.base_branch or (workspace.base_commit or "HEAD")[:12]
        return gettext("Isolated worktree ({path}) from {base}", path=str(workspace.worktree_dir),
                       base=base)
    if workspace.is_isolated:
        return gettext("Isolated worktree (.harness/worktrees/{id})", id=workspace.session_id)
    return gettext("Direct directory (no Git)")


def chat_launch_line(driver: Driver, permission: Permission, workspace: Workspace) -> str:
    """Which agent runs where (``gz-ia chat`` in the foreground)."""
    return gettext("❯❯ Starting chat with {name} (Permission: {permission} | Workspace: "
                   "{workspace})...",
                   name=driver.display_name, permission=permission_text(permission),
                   workspace=workspace_label(workspace))


def exec_launch_line(command: Sequence[str], session_id: str, workspace: Workspace) -> str:
    """Which command runs where (``gz-ia exec`` in the foreground)."""
    return gettext("❯❯ Running {command} in session {id} (Workspace: {workspace})...",
                   command=shlex.join(command), id=session_id,
                   workspace=workspace_label(workspace))
