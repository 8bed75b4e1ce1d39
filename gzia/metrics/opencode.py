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
import json
import sqlite3
from pathlib import Path
from typing import Any

from gzia.drivers.transcripts import open_readonly
from gzia.metrics.model import AgentMetrics, Notice, SubAgent, Usage

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


def read_sessions(database: Path, session_ids: list[str]) -> tuple[AgentMetrics, list[Notice]]:
    metrics = AgentMetrics(SOURCE, files=[str(database)], conversation_ids=list(session_ids))
    try:
        with contextlib.closing(open_readonly(database)) as connection:
            for session_id in session_ids:
                _read_session(connection, session_id, metrics.usage)
                metrics.subagents += _subagents(connection, session_id, depth=1)
    except sqlite3.Error as exc:
        reason = "unknown_format" if "no such" in str(exc) else "unreadable"
        return metrics, [Notice(reason, str(database), detail=str(exc))]
    return metrics, []


def _read_session(connection: sqlite3.Connection, session_id: str, usage: Usage) -> None:
    messages = connection.execute(
        "SELECT data FROM message WHERE session_id = ? ORDER BY time_created, id", (session_id,))
    for (data,) in messages:
        message = _loads(data)
        if message.get("role") == "assistant":
            _count_message(usage, message)
    parts = connection.execute(
        "SELECT data FROM part WHERE session_id = ? AND data LIKE '%\"tool\"%'", (session_id,))
    for (data,) in parts:
        part = _loads(data)
        if part.get("type") == "tool":
            name = part.get("tool")
            usage.tool_calls[name if isinstance(name, str) else "?"] += 1


def _subagents(connection: sqlite3.Connection, parent_id: str, depth: int) -> list[SubAgent]:
    if depth > MAX_DEPTH:
        return []
    children = connection.execute(
        "SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id",
        (parent_id,)).fetchall()
    found = []
    for (child_id,) in children:
        child = AgentMetrics(SOURCE, conversation_ids=[str(child_id)])
        _read_session(connection, str(child_id), child.usage)
        child.subagents = _subagents(connection, str(child_id), depth + 1)
        found.append(SubAgent(str(child_id), child))
    return found


def _count_message(usage: Usage, message: dict[str, Any]) -> None:
    model = message.get("modelID")
    tokens = usage.model(model if isinstance(model, str) else "?")
    tokens.requests += 1
    figures = message.get("tokens")
    figures = figures if isinstance(figures, dict) else {}
    cache = figures.get("cache")
    cache = cache if isinstance(cache, dict) else {}
    tokens.input += _int(figures.get("input"))
    tokens.output += _int(figures.get("output"))
    tokens.reasoning = (tokens.reasoning or 0) + _int(figures.get("reasoning"))
    tokens.cache_read += _int(cache.get("read"))
    tokens.cache_write += _int(cache.get("write"))
    cost = message.get("cost")
    if isinstance(cost, int | float):
        tokens.cost = (tokens.cost or 0.0) + float(cost)


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _loads(data: object) -> dict[str, Any]:
    try:
        value = json.loads(data) if isinstance(data, str | bytes) else None
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
