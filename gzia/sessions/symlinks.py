"""gz-ia never writes or deletes through a symbolic link it did not create.

A repository can track ``.harness/worktrees -> /elsewhere`` or ``.harness -> ~``, and a
copied project can hold ``.harness/sessions/<id>.lock -> ~/.bashrc``: following such a
link would put records, worktrees, logs and removals outside the project, and would read
records (pids to signal) from wherever it points. So:

- every command that opens the store checks first, without following links, that
  ``.harness`` and its directories are real directories (or absent);
- a session's worktree path is checked the same way wherever it is built, and so is
  every path ``delete`` removes;
- the store's files (records, events, locks, logs) are opened with ``O_NOFOLLOW``.

Each refusal is ``SAFETY_BLOCK`` naming the link and its target. There is no ``--force``
for it: the link is the user's to remove (removing it leaves its target as it is).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import SafetyBlockError
from gzia.i18n import N_

if TYPE_CHECKING:
    from gzia.sessions.project import Project

STORE_DIRS = ("sessions", "worktrees", "logs", "session-files", "mcp", "idempotency")
"""The directories gz-ia keeps under ``.harness/``."""


def refuse_symlinked_layout(project: Project) -> None:
    """``.harness`` and its directories must not be symbolic links."""
    refuse_symlink(project.harness_dir)
    for name in STORE_DIRS:
        refuse_symlink(project.harness_dir / name)


def refuse_symlink(path: Path) -> None:
    if path.is_symlink():
        raise symlink_refusal(path)


def symlink_refusal(path: Path) -> SafetyBlockError:
    try:
        target = str(path.readlink())
    except OSError:  # replaced meanwhile: still not something to follow
        target = "?"
    return SafetyBlockError(N_("refusing to use {path}: it is a symbolic link (to {target}); gz-ia "
                               "never writes or deletes through a link it did not create"),
                            path=str(path), target=target,
                            hint_key=N_("remove the link (rm {path}; its target stays as it is), "
                                        "then run the command again"),
                            details={"path": str(path), "target": target})
