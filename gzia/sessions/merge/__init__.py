"""``session merge`` / ``get``: bring a session's branch into the base repository.

:mod:`.service` runs the merge, :mod:`.checks` refuses before anything moves,
:mod:`.commit` makes the commits, :mod:`.rollback` puts everything back on failure.
"""

from __future__ import annotations

from gzia.sessions.merge.checks import dirty_worktree, injected_files
from gzia.sessions.merge.rollback import SavedIndex
from gzia.sessions.merge.service import MergePreview, MergeResult, merge_session, preview_merge

__all__ = ["MergePreview", "MergeResult", "SavedIndex", "dirty_worktree", "injected_files",
           "merge_session", "preview_merge"]
