"""Between a session's branch and its base, both ways: ``session merge`` / ``get`` bring the
session into the base, ``session update`` brings the base into the session, and a conflict
either way can be handed to an agent.

:mod:`.service` runs the merge, :mod:`.checks` refuses before anything moves,
:mod:`.commit` makes the commits, :mod:`.rollback` puts everything back on failure;
:mod:`.base_update` runs ``session update``; :mod:`.handoff` prepares a resolving session.
"""

from __future__ import annotations

from gzia.sessions.merge.base_update import (
    BaseTarget,
    UpdateResult,
    refuse_update_conflicts,
    update_session,
)
from gzia.sessions.merge.checks import dirty_worktree, injected_files
from gzia.sessions.merge.handoff import (
    RESOLVES_LABEL,
    ConflictHandoff,
    merge_base_into,
    prepare_handoff,
)
from gzia.sessions.merge.rollback import SavedIndex
from gzia.sessions.merge.service import MergePreview, MergeResult, merge_session, preview_merge

__all__ = ["RESOLVES_LABEL", "BaseTarget", "ConflictHandoff", "MergePreview", "MergeResult",
           "SavedIndex", "UpdateResult", "dirty_worktree", "injected_files", "merge_base_into",
           "merge_session", "prepare_handoff", "preview_merge", "refuse_update_conflicts",
           "update_session"]
