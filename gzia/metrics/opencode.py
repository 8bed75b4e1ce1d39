"""opencode's database: ``<data dir>/opencode/opencode.db`` (SQLite), opened read-only.

A session is a row of ``session``; its ``message`` rows with ``role: assistant`` are the
model requests (``tokens``: ``input``, ``output``, ``reasoning``, ``cache.read``,
``cache.write``; ``cost``; ``modelID``), its ``part`` rows of ``type: tool`` the tool
calls. A sub-agent is a session whose ``parent_id`` is this one, read recursively. Rows
are read as a cursor walks them, so a long session stays flat in memory. The database is
opened with ``mode=ro`` and ``query_only``, which a running opencode does not mind.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.drivers.transcripts import open_readonly
from gzia.metrics.jsonl import MAX_LINE_BYTES, TooComplexError, decode_line, line_too_long
from gzia.metrics.model import AgentMetrics, FigureCheck, Notice, SubAgent, Usage

SOURCE = "opencode database"
MAX_DEPTH = 8
"""Sub-agents of sub-agents are followed this deep (a guard against a parent cycle)."""


def sessions_of_directory(database: Path, directory: str) -> list[str]:
    """The top-level sessions opencode ran in ``directory`` (an isolated session's
    worktree is its own: every one of them belongs to it)."""
    with contextlib.closing(open_readonly(database)) as connection:
        rows = connection.execute(
            "SELECT id FROM session WHERE directory = ? AND parent_id IS NULL "
            "ORDER BY time_created, id", (directory,)).fetchall()
    return [str(row[0]) for row in rows]


@dataclass
class _Rows:
    """What was read of the database's rows: the connection, and rows left out."""

    connection: sqlite3.Connection
    unreadable: int = 0
    too_long: int = 0
    too_complex: int = 0
    figures: FigureCheck = field(default_factory=FigureCheck)

    def notices(self, where: str) -> list[Notice]:
        counts = (("unreadable_lines", self.unreadable), ("too_complex", self.too_complex),
                  ("bad_values", self.figures.bad))
        found = [Notice(reason, where, count) for reason, count in counts if count]
        return found + ([line_too_long(where, self.too_long)] if self.too_long else [])


def read_sessions(database: Path, session_ids: list[str]) -> tuple[AgentMetrics, list[Notice]]:
    metrics = AgentMetrics(SOURCE, files=[str(database)], conversation_ids=list(session_ids))
    try:
        with contextlib.closing(open_readonly(database)) as connection:
            rows = _Rows(connection)
            for session_id in session_ids:
                _read_session(rows, session_id, metrics.usage)
                metrics.subagents += _subagents(rows, session_id, depth=1)
    except sqlite3.Error as exc:
        reason = "unknown_format" if "no such" in str(exc) else "unreadable"
        return metrics, [Notice(reason, str(database), detail=str(exc))]
    return metrics, rows.notices(str(database))


_LIMITED = "SELECT length(CAST(data AS BLOB)) > :limit, " \
           "CASE WHEN length(CAST(data AS BLOB)) <= :limit THEN data END"
"""Whether a row's JSON is longer than a transcript line may be, and the JSON when not."""


def _read_session(rows: _Rows, session_id: str, usage: Usage) -> None:
    where = {"limit": MAX_LINE_BYTES, "session": session_id}
    messages = rows.connection.execute(
        _LIMITED + " FROM message WHERE session_id = :session ORDER BY time_created, id",
        where)
    for too_long, data in messages:
        message = _loads(rows, too_long, data)
        if message.get("role") == "assistant":
            _count_message(usage, message, rows.figures)
    parts = rows.connection.execute(
        _LIMITED + " FROM part WHERE session_id = :session AND data LIKE '%\"tool\"%'", where)
    for too_long, data in parts:
        part = _loads(rows, too_long, data)
        if part.get("type") == "tool":
            name = part.get("tool")
            usage.tool_calls[name if isinstance(name, str) else "?"] += 1


def _subagents(rows: _Rows, parent_id: str, depth: int) -> list[SubAgent]:
    if depth > MAX_DEPTH:
        return []
    children = rows.connection.execute(
        "SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id",
        (parent_id,)).fetchall()
    found = []
    for (child_id,) in children:
        child = AgentMetrics(SOURCE, conversation_ids=[str(child_id)])
        _read_session(rows, str(child_id), child.usage)
        child.subagents = _subagents(rows, str(child_id), depth + 1)
        found.append(SubAgent(str(child_id), child))
    return found


def _count_message(usage: Usage, message: dict[str, Any], check: FigureCheck) -> None:
    model = message.get("modelID")
    tokens = usage.model(model if isinstance(model, str) else "?")
    tokens.requests += 1
    figures = message.get("tokens")
    figures = figures if isinstance(figures, dict) else {}
    cache = figures.get("cache")
    cache = cache if isinstance(cache, dict) else {}
    tokens.input += check.tokens(figures.get("input")) or 0
    tokens.output += check.tokens(figures.get("output")) or 0
    tokens.reasoning = (tokens.reasoning or 0) + (check.tokens(figures.get("reasoning")) or 0)
    tokens.cache_read += check.tokens(cache.get("read")) or 0
    tokens.cache_write += check.tokens(cache.get("write")) or 0
    cost = check.cost(message.get("cost"))
    if cost is not None:
        tokens.cost = (tokens.cost or 0.0) + cost


def _loads(rows: _Rows, too_long: object, data: object) -> dict[str, Any]:
    """A row's JSON object; ``{}`` for a row left out (counted) or one that is no object."""
    if too_long:
        rows.too_long += 1
        return {}
    try:
        value = decode_line(data) if isinstance(data, str | bytes) else None
    except TooComplexError:
        rows.too_complex += 1
        return {}
    except ValueError:
        rows.unreadable += 1
        return {}
    return value if isinstance(value, dict) else {}
