"""pi transcripts: ``<agent dir>/sessions/<cwd slug>/<time>_<id>.jsonl``.

The first line is the ``session`` header (its ``id`` is the conversation id). Every
``message`` entry whose ``message.role`` is ``assistant`` is one model request, with
``usage`` (``input``, ``output``, ``cacheRead``, ``cacheWrite``, ``cost.total``) and
``toolCall`` content blocks. pi records no reasoning-token count and has no sub-agents.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gzia.metrics.jsonl import LineStats, json_objects, unreadable
from gzia.metrics.model import AgentMetrics, FigureCheck, Notice, Usage

SOURCE = "pi transcript"
_USAGE_FIELDS = (("input", "input"), ("output", "output"), ("cache_read", "cacheRead"),
                 ("cache_write", "cacheWrite"))


def read_transcripts(paths: list[Path]) -> tuple[AgentMetrics, list[Notice]]:
    metrics = AgentMetrics(SOURCE)
    notices: list[Notice] = []
    for path in paths:
        stats = LineStats(path)
        try:
            for entry in json_objects(stats, b'"assistant"'):
                _read_entry(metrics, stats, entry)
        except OSError as exc:
            notices.append(unreadable(path, exc))
            continue
        metrics.files.append(str(path))
        notices += stats.notices()
    return metrics, notices


def _read_entry(metrics: AgentMetrics, stats: LineStats, entry: dict[str, Any]) -> None:
    kind = entry.get("type")
    if kind == "session":
        stats.recognised = True
        if isinstance(entry.get("id"), str):
            metrics.conversation_ids.append(entry["id"])
    elif kind == "message":
        stats.recognised = True
        message = entry.get("message")
        if isinstance(message, dict) and message.get("role") == "assistant":
            _count(metrics.usage, message, stats.figures)


def _count(usage: Usage, message: dict[str, Any], check: FigureCheck) -> None:
    model = message.get("model")
    tokens = usage.model(model if isinstance(model, str) else "?")
    tokens.requests += 1
    figures = message.get("usage")
    if isinstance(figures, dict):
        for name, key in _USAGE_FIELDS:
            value = check.tokens(figures.get(key))
            if value is not None:
                setattr(tokens, name, getattr(tokens, name) + value)
        cost = figures.get("cost")
        total = check.cost(cost.get("total") if isinstance(cost, dict) else None)
        if total is not None:
            tokens.cost = (tokens.cost or 0.0) + total
    content = message.get("content")
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "toolCall":
            tool = block.get("name")
            usage.tool_calls[tool if isinstance(tool, str) else "?"] += 1
