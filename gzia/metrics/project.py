"""``gz-ia metrics``: every session of the project, their totals, and groupings.

Figures of a session include its sub-agents'. Days are UTC dates of ``started_at``, and
``--since`` compares against it the same way. Files and lines changed are left to
``session metrics``: they cost a git diff per session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.metrics.model import Usage
from gzia.metrics.session import SessionMetrics, session_metrics
from gzia.sessions.record import SessionRecord, Status, parse_rfc3339
from gzia.sessions.store import SessionStore

GROUPINGS = ("provider", "day", "model")


@dataclass(frozen=True)
class Filters:
    since: datetime | None = None
    provider: str | None = None
    status: str | None = None

    def admit(self, record: SessionRecord) -> bool:
        if self.provider is not None and record.provider != self.provider:
            return False
        if self.status is not None and record.status != self.status:
            return False
        return self.since is None or _started(record) >= self.since


def parse_filters(since: str | None, provider: str | None, status: str | None) -> Filters:
    """Checked filters: a bad ``--since`` or ``--status`` is a usage error (exit 2)."""
    if status is not None and status not in {s.value for s in Status}:
        raise InvalidInputError(N_("invalid --status '{status}': expected one of {choices}"),
                                status=status,
                                choices=", ".join(s.value for s in Status),
                                details={"status": status})
    return Filters(parse_since(since) if since is not None else None, provider, status)


def parse_by(by: str | None) -> str | None:
    if by is not None and by not in GROUPINGS:
        raise InvalidInputError(N_("invalid --by '{by}': expected one of {choices}"), by=by,
                                choices=", ".join(GROUPINGS),
                                details={"by": by})
    return by


def parse_since(text: str) -> datetime:
    """``YYYY-MM-DD`` (midnight UTC) or an RFC 3339 time."""
    try:
        if len(text) == 10:
            return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
        return parse_rfc3339(text)
    except ValueError:
        raise InvalidInputError(N_("invalid --since '{since}': expected a date (YYYY-MM-DD) or an "
                                   "RFC 3339 time"),
                                since=text,
                                details={"since": text}) from None


def _started(record: SessionRecord) -> datetime:
    try:
        return parse_rfc3339(record.started_at)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)


@dataclass
class Figures:
    """Figures added up over sessions: a total, or one group."""

    sessions: int = 0
    duration_ms: int | None = 0
    usage: Usage = field(default_factory=Usage)
    estimated: bool = False

    def to_json(self) -> dict[str, Any]:
        usage = self.usage.to_json()
        del usage["models"]
        return {"sessions": self.sessions, "duration_ms": self.duration_ms, **usage,
                "estimated": self.estimated}


@dataclass
class ProjectMetrics:
    sessions: list[SessionMetrics]
    totals: Figures
    by: str | None = None
    groups: dict[str, Figures] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        groups = None
        if self.by is not None:
            groups = [{"key": key, **figures.to_json()} for key, figures in self.groups.items()]
        return {"sessions": [s.to_json() for s in self.sessions],
                "totals": self.totals.to_json(), "by": self.by, "groups": groups}


def project_metrics(records: Iterable[SessionRecord], store: SessionStore, filters: Filters,
                    env: Mapping[str, str], by: str | None = None) -> ProjectMetrics:
    chosen = [r for r in records if filters.admit(r)]
    rows = [session_metrics(store.project, r, env, with_changes=False) for r in chosen]
    result = ProjectMetrics(rows, Figures(), by)
    for row in rows:
        _add(result.totals, row)
        for key, share in _group_shares(row, by):
            _add(result.groups.setdefault(key, Figures()), row, share)
    result.groups = dict(sorted(result.groups.items()))
    if by == "model":
        for figures in result.groups.values():
            figures.duration_ms = None  # a session's time is not split between its models
    return result


def _group_shares(row: SessionMetrics, by: str | None) -> list[tuple[str, Usage | None]]:
    """The groups ``row`` falls in, each with the share of its usage it brings there."""
    if by == "provider":
        return [(row.record.provider or "-", None)]
    if by == "day":
        started = _started(row.record)
        return [(started.astimezone(UTC).date().isoformat() if started.year > 1 else "-", None)]
    if by == "model" and row.agent is not None:
        usage = row.agent.with_subagents()
        return [(name, _only_model(usage, name)) for name in usage.by_model]
    return []


def _only_model(usage: Usage, name: str) -> Usage:
    share = Usage()
    share.model(name).add(usage.by_model[name])
    return share


def _add(target: Figures, row: SessionMetrics, share: Usage | None = None) -> None:
    target.sessions += 1
    if target.duration_ms is not None and row.duration_ms is not None:
        target.duration_ms += row.duration_ms
    if row.agent is None:
        return
    target.usage.add(share if share is not None else row.agent.with_subagents())
    target.estimated = target.estimated or row.agent.estimated
