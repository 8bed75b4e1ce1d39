"""Claude Code transcripts: ``<config>/projects/<slug>/<conversation>.jsonl``.

Usage is on ``assistant`` entries (``message.usage``). Claude Code writes one model reply
holding several content blocks (thinking, text, tool use) as several lines sharing one
``message.id``: each message is one request, and its usage is counted once (the largest
figure seen for it, should a later line carry a grown count). Repeats are recognised while
fewer than :data:`RECENT_MESSAGES` other messages come between them, so memory stays flat
however long the transcript. ``<synthetic>`` entries (errors Claude Code writes itself)
are no model request. Sub-agents write their own transcripts in
``<slug>/<conversation>/subagents/*.jsonl``; older versions wrote them into the main file
as ``isSidechain`` entries, counted here as the sub-agent ``sidechain``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.metrics.jsonl import LineStats, json_objects, unreadable
from gzia.metrics.model import AgentMetrics, FigureCheck, Notice, SubAgent, Tokens, Usage

SOURCE = "claude transcript"
RECENT_MESSAGES = 1024
SYNTHETIC_MODEL = "<synthetic>"
_USAGE_FIELDS = (("input", "input_tokens"), ("output", "output_tokens"),
                 ("cache_read", "cache_read_input_tokens"),
                 ("cache_write", "cache_creation_input_tokens"))
_USAGE_FIELDS_NAMES = tuple(name for name, _ in _USAGE_FIELDS)


@dataclass
class _Counted:
    """What was counted for one message so far: its usage, into its model's figures, and
    its tool-use ids."""

    tokens: Tokens
    figures: dict[str, int]
    tools: set[str] = field(default_factory=set)


@dataclass
class _Conversation:
    usage: Usage = field(default_factory=Usage)
    recent: OrderedDict[str, _Counted] = field(default_factory=OrderedDict)
    last_id: object = None
    """The message id of the previous line: the next lines of a message follow it."""
    last: _Counted | None = None
    last_usage: Any = None
    """The previous line's usage: the next line of its message usually repeats it."""


def read_transcripts(paths: list[Path]) -> tuple[AgentMetrics, list[Notice]]:
    """The usage of the conversations in ``paths`` (one session may hold several: ``/clear``
    starts a new one), with their sub-agents'."""
    metrics = AgentMetrics(SOURCE)
    notices: list[Notice] = []
    for path in paths:
        main, sidechain = _Conversation(), _Conversation()
        notices += _read_file(path, main, sidechain)
        metrics.files.append(str(path))
        metrics.conversation_ids.append(path.stem)
        metrics.usage.add(main.usage)
        if sidechain.usage.by_model or sidechain.usage.tool_calls:
            sub = AgentMetrics(SOURCE, usage=sidechain.usage)
            metrics.subagents.append(SubAgent("sidechain", sub))
        metrics.subagents += _subagents(path, notices)
    return metrics, notices


def _subagents(path: Path, notices: list[Notice]) -> list[SubAgent]:
    folder = path.with_suffix("") / "subagents"
    found = []
    for sub_path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        conversation = _Conversation()
        notices += _read_file(sub_path, conversation, conversation)
        sub = AgentMetrics(SOURCE, files=[str(sub_path)], usage=conversation.usage)
        found.append(SubAgent(sub_path.stem.removeprefix("agent-"), sub))
    return found


def _read_file(path: Path, main: _Conversation, sidechain: _Conversation) -> list[Notice]:
    stats = LineStats(path)
    try:
        for entry in json_objects(stats, b'"assistant"'):
            if not stats.recognised:
                stats.recognised = _is_claude_entry(entry)
            if entry.get("type") == "assistant":
                conversation = sidechain if entry.get("isSidechain") is True else main
                _count(conversation, entry.get("message"), stats.figures)
    except OSError as exc:
        return [unreadable(path, exc)]
    return stats.notices()


def _is_claude_entry(entry: dict[str, Any]) -> bool:
    return isinstance(entry.get("type"), str) and ("sessionId" in entry or "message" in entry)


def _count(conversation: _Conversation, message: Any, check: FigureCheck) -> None:
    if not isinstance(message, dict):
        return
    message_id, usage = message.get("id"), message.get("usage")
    counted = conversation.last
    if counted is None or message_id != conversation.last_id or message_id is None:
        counted = _counted_for(conversation, message, message_id)
        if counted is None:
            return
        _add_growth(counted, usage, check)
    elif usage != conversation.last_usage:  # a further line of the same message
        _add_growth(counted, usage, check)
    conversation.last_id, conversation.last, conversation.last_usage = message_id, counted, usage
    content = message.get("content")
    if isinstance(content, list):
        for block in content:
            if _is_tool_use(block):
                _count_tool(conversation.usage, counted, block)


def _counted_for(conversation: _Conversation, message: dict[str, Any],
                 message_id: object) -> _Counted | None:
    """The message's entry: remembered when seen lately, else new (one more request)."""
    if isinstance(message_id, str):
        counted = conversation.recent.get(message_id)
        if counted is not None:
            conversation.recent.move_to_end(message_id)
            return counted
    model = message.get("model")
    if not isinstance(model, str) or model == SYNTHETIC_MODEL:
        return None
    counted = _Counted(conversation.usage.model(model), dict.fromkeys(_USAGE_FIELDS_NAMES, 0))
    counted.tokens.requests += 1
    if isinstance(message_id, str):
        conversation.recent[message_id] = counted
        if len(conversation.recent) > RECENT_MESSAGES:
            conversation.recent.popitem(last=False)
    return counted


def _is_tool_use(block: object) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_use"


def _add_growth(counted: _Counted, usage: Any, check: FigureCheck) -> None:
    """Add what ``usage`` holds beyond what was counted for this message already."""
    if not isinstance(usage, dict):
        return
    figures, tokens = counted.figures, counted.tokens
    for name, key in _USAGE_FIELDS:
        value = check.tokens(usage.get(key))
        if value is not None and value > figures[name]:
            setattr(tokens, name, getattr(tokens, name) + value - figures[name])
            figures[name] = value


def _count_tool(usage: Usage, counted: _Counted, block: dict[str, Any]) -> None:
    name, block_id = block.get("name"), block.get("id")
    if isinstance(block_id, str):
        if block_id in counted.tools:
            return  # the same block written again
        counted.tools.add(block_id)
    usage.tool_calls[name if isinstance(name, str) else "?"] += 1
