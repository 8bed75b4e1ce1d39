"""Google Antigravity (agy): figures estimated from its transcripts, as the original did.

agy records no token usage. ``<agy dir>/history.jsonl`` maps conversations to workspaces
(``{display, timestamp, workspace, conversationId}``); a conversation's steps are in
``brain/<id>/.system_generated/logs/transcript.jsonl`` (or ``brain/<id>/transcript.jsonl``).
Tokens are ``ceil(chars / 4)``: reasoning from ``thinking``; input from user steps
(``USER_INPUT``, ``GENERIC``, any source but ``MODEL``); output from the model's
``PLANNER_RESPONSE`` steps plus their tool names and arguments. Each model response is one
request. ``invoke_subagent`` calls name sub-conversations (a ``conversationId`` in the next
three steps, else a UUID there), read the same way. Every figure is marked estimated.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.metrics.jsonl import LineStats, json_objects, unreadable
from gzia.metrics.model import AgentMetrics, Notice, SubAgent

SOURCE = "agy transcript"
UNKNOWN_MODEL = "(unknown)"
MAX_DEPTH = 8
LOOKAHEAD_STEPS = 3
_CONVERSATION = re.compile(r'\\?"conversationId\\?"\s*:\s*\\?"([A-Za-z0-9][A-Za-z0-9_.:-]*)')
"""A ``"conversationId": "<id>"`` pair, also inside a JSON string (quotes escaped)."""
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_PROMPT_TYPES = ("USER_INPUT", "GENERIC")


@dataclass
class _Chars:
    requests: int = 0
    input: int = 0
    output: int = 0
    reasoning: int = 0
    tools: dict[str, int] = field(default_factory=dict)
    subagent_ids: list[str] = field(default_factory=list)


def conversations_in(history: Path, workspaces: set[str], window: tuple[int, int] | None,
                     ) -> tuple[list[str], list[Notice]]:
    """Conversation ids that ``history.jsonl`` records for ``workspaces``, started inside
    ``window`` (epoch milliseconds) when one is given."""
    stats, found = LineStats(history), []
    try:
        for entry in json_objects(stats, b"conversationId"):
            stats.recognised = stats.recognised or "conversationId" in entry
            stamp = entry.get("timestamp")
            if entry.get("workspace") in workspaces and _inside(stamp, window):
                conversation = entry.get("conversationId")
                if isinstance(conversation, str) and conversation not in found:
                    found.append(conversation)
    except OSError as exc:
        return [], [unreadable(history, exc, "missing")]
    return found, stats.notices()


def _inside(stamp: object, window: tuple[int, int] | None) -> bool:
    if window is None:
        return True
    return isinstance(stamp, int | float) and window[0] <= stamp <= window[1]


def read_conversations(brain: Path, ids: Iterable[str], depth: int = 0,
                       seen: set[str] | None = None) -> tuple[AgentMetrics, list[Notice]]:
    """The figures of conversations ``ids`` and their sub-agents'. Each conversation is
    read once (``seen``), so sub-agents naming each other cost no more than their files."""
    metrics = AgentMetrics(SOURCE, estimated=True)
    notices: list[Notice] = []
    seen = set() if seen is None else seen
    for conversation in ids:
        if conversation in seen:
            continue
        seen.add(conversation)
        path = transcript_of(brain, conversation)
        metrics.conversation_ids.append(conversation)
        if path is None:
            notices.append(Notice("missing", str(brain / conversation / "transcript.jsonl")))
            continue
        chars, file_notices = _read_steps(path)
        metrics.files.append(str(path))
        notices += file_notices
        _add_estimate(metrics, chars)
        if depth < MAX_DEPTH:
            for sub_id in chars.subagent_ids:
                if sub_id in seen:
                    continue
                sub, sub_notices = read_conversations(brain, [sub_id], depth + 1, seen)
                notices += sub_notices
                metrics.subagents.append(SubAgent(sub_id, sub, _status(sub, sub_notices)))
    return metrics, notices


def transcript_of(brain: Path, conversation: str) -> Path | None:
    """The conversation's transcript; one that is no regular file is found too, and
    refused when read (``not_regular``)."""
    for candidate in (brain / conversation / ".system_generated" / "logs" / "transcript.jsonl",
                      brain / conversation / "transcript.jsonl"):
        if candidate.exists():
            return candidate
    return None


def _status(sub: AgentMetrics, notices: list[Notice]) -> str:
    return "unknown" if not sub.files or notices else "completed"


def _add_estimate(metrics: AgentMetrics, chars: _Chars) -> None:
    tokens = metrics.usage.model(UNKNOWN_MODEL)
    tokens.requests += chars.requests
    tokens.input += math.ceil(chars.input / 4)
    tokens.output += math.ceil(chars.output / 4)
    tokens.reasoning = (tokens.reasoning or 0) + math.ceil(chars.reasoning / 4)
    metrics.usage.tool_calls.update(chars.tools)


def _read_steps(path: Path) -> tuple[_Chars, list[Notice]]:
    chars, stats = _Chars(), LineStats(path)
    pending: list[int] = []  # invoke_subagent calls still looking for their conversation
    try:
        for step in json_objects(stats, b""):
            stats.recognised = stats.recognised or "type" in step
            pending = _find_subagent(chars, step, pending)
            _count_step(chars, step, pending)
    except OSError as exc:
        return chars, [unreadable(path, exc)]
    return chars, stats.notices()


def _count_step(chars: _Chars, step: dict[str, Any], pending: list[int]) -> None:
    chars.reasoning += len(_text(step.get("thinking")))
    kind, source = step.get("type"), step.get("source")
    if source == "MODEL" and kind == "PLANNER_RESPONSE":
        chars.requests += 1
        chars.output += len(_text(step.get("content")))
        for call in _tool_calls(step):
            name = _text(call.get("name")) or "?"
            chars.tools[name] = chars.tools.get(name, 0) + 1
            chars.output += len(name) + len(_arguments(call))
            if name == "invoke_subagent":
                pending.append(LOOKAHEAD_STEPS)
    elif kind in _PROMPT_TYPES or source != "MODEL":
        chars.input += len(_text(step.get("content")))


def _find_subagent(chars: _Chars, step: dict[str, Any], pending: list[int]) -> list[int]:
    """The first of the next steps naming a conversation answers the oldest open call."""
    if not pending:
        return pending
    text = json.dumps(step)
    match = _CONVERSATION.search(text) or _UUID.search(text)
    if match is not None:
        chars.subagent_ids.append(match.group(1) if match.re is _CONVERSATION else match.group(0))
        pending = pending[1:]
    return [left - 1 for left in pending if left > 1]


def _tool_calls(step: dict[str, Any]) -> list[dict[str, Any]]:
    calls = step.get("toolCalls", step.get("tool_calls"))
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def _arguments(call: dict[str, Any]) -> str:
    args = call.get("args", call.get("arguments"))
    return args if isinstance(args, str) else json.dumps(args) if args is not None else ""


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
