"""``session prune``: :mod:`.orphans` removes what belongs to no record; :mod:`.finished`
(``--finished``) deletes finished sessions whose work is merged."""

from __future__ import annotations

from gzia.sessions.prune.finished import FinishedReport, prune_finished
from gzia.sessions.prune.orphans import PruneReport, prune

__all__ = ["FinishedReport", "PruneReport", "prune", "prune_finished"]
