"""The line ``gz-ia session pause`` prints, said by the command line and the TUI alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.i18n import N_, gettext

if TYPE_CHECKING:
    from gzia.sessions.pause import PauseResult


COMMAND_LINE = (N_("✓ Session '{id}' paused: its work is committed on {branch} ({commit}) and "
                   "its worktree was removed; bring it back with gz-ia session revive {id}"),
                N_("✓ Session '{id}' paused: nothing was uncommitted, its work is on {branch}, "
                   "and its worktree was removed; bring it back with gz-ia session revive {id}"))
"""The command line's lines: committed, nothing to commit."""
TUI = (N_("✓ Session '{id}' paused: its work is committed on {branch} ({commit}) and its "
          "worktree was removed; bring it back with v"),
       N_("✓ Session '{id}' paused: nothing was uncommitted, its work is on {branch}, and its "
          "worktree was removed; bring it back with v"))
"""The terminal UI's, which names its key, not a command to type elsewhere."""


def paused_line(result: PauseResult, lines: tuple[str, str] = COMMAND_LINE) -> str:
    """What a pause did: already paused, or the work committed (or nothing to commit);
    ``lines``: :data:`COMMAND_LINE` or :data:`TUI`."""
    record = result.record
    if result.already_paused:
        return gettext("✧ Session '{id}' is already paused.", id=record.id)
    key = lines[0] if result.commit.committed else lines[1]
    return gettext(key, id=record.id, branch=f"harness/{record.id}",
                   commit=(result.commit.commit or "")[:12])
