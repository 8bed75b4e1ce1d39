"""``session metrics``: one session's figures, each saying where it came from.

Duration and exit come from the record (milliseconds; a running session's duration is
the time since it started), files and lines changed from the session's diff against its
base, everything else from the agent's own transcript.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gzia.contract import GzError
from gzia.metrics.model import AgentMetrics, Notice
from gzia.metrics.sources import read_agent_metrics
from gzia.sessions.diff import session_diff
from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord, elapsed_ms


@dataclass(frozen=True)
class Changes:
    files: int
    insertions: int
    deletions: int

    def to_json(self) -> dict[str, Any]:
        return {"source": "git diff", "files": self.files, "insertions": self.insertions,
                "deletions": self.deletions}


@dataclass
class SessionMetrics:
    record: SessionRecord
    agent: AgentMetrics | None
    changes: Changes | None = None
    notices: list[Notice] = field(default_factory=list)

    @property
    def duration_ms(self) -> int | None:
        if self.record.duration_ms is None and self.record.is_running:
            return elapsed_ms(self.record.started_at)
        return self.record.duration_ms

    def to_json(self) -> dict[str, Any]:
        r = self.record
        totals = self.agent.with_subagents().to_json() if self.agent is not None else None
        return {
            "id": r.id, "provider": r.provider, "status": r.status, "mode": r.mode,
            "started_at": r.started_at, "finished_at": r.finished_at,
            "duration_ms": self.duration_ms, "exit_code": r.exit_code, "source": "record",
            "changes": self.changes.to_json() if self.changes is not None else None,
            "agent": self.agent.to_json() if self.agent is not None else None,
            "totals": totals,
        }


def session_metrics(
    project: Project, record: SessionRecord, env: Mapping[str, str], *, with_changes: bool = True
) -> SessionMetrics:
    read = read_agent_metrics(record, env)
    result = SessionMetrics(record, read.metrics, notices=list(read.notices))
    if with_changes and record.is_isolated:
        try:
            result.changes = changes_of(project, record)
        except GzError as exc:
            result.notices.append(Notice("diff_unavailable", record.id, detail=exc.message))
    return result


def changes_of(project: Project, record: SessionRecord) -> Changes:
    diff = session_diff(project, record)
    insertions, deletions = count_changed_lines(diff.text)
    return Changes(len(diff.files), insertions, deletions)


def count_changed_lines(diff_text: str) -> tuple[int, int]:
    """Added and removed lines of a unified git diff (hunk lines only, never headers)."""
    insertions = deletions = 0
    in_hunk = False
    for line in diff_text.splitlines():
        if line.startswith("diff --git "):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line.startswith("+"):
            insertions += 1
        elif in_hunk and line.startswith("-"):
            deletions += 1
    return insertions, deletions
