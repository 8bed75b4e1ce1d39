"""What metrics are made of: token counts per model, an agent's usage, and its sub-agents.

A figure the agent does not record is ``None`` (``reasoning`` for Claude Code and pi, the
cost for Claude Code), never 0: 0 is a figure the agent did record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypeVar

TOKEN_KINDS = ("input", "output", "cache_read", "cache_write", "reasoning")
MAX_TOKENS = 10**9
"""The most tokens of one kind one request may record; a larger count is bad data."""
MAX_COST_USD = 10_000.0
"""The highest cost one request may record; a higher (or non-finite) one is bad data."""


@dataclass
class FigureCheck:
    """Takes a transcript's figures only when they can be true, and counts those that
    cannot: a negative, fractional or huge token count, a cost that is negative, huge,
    NaN or infinite. A bad figure is left out; the rest of its request still counts.
    Absent figures (or ones that are not numbers) are not recorded, not bad."""

    bad: int = 0

    def tokens(self, value: object) -> int | None:
        if type(value) is int and 0 <= value <= MAX_TOKENS:  # not a bool: its type is bool
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        self.bad += 1
        return None

    def cost(self, value: object) -> float | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if 0 <= value <= MAX_COST_USD:  # NaN compares false; an int is compared exactly
            return float(value)
        self.bad += 1
        return None


@dataclass
class Tokens:
    """Requests, tokens and cost of one model (or of several, added up)."""

    requests: int = 0
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int | None = None
    cost: float | None = None

    def add(self, other: Tokens) -> None:
        self.requests += other.requests
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.reasoning = _plus(self.reasoning, other.reasoning)
        self.cost = _plus(self.cost, other.cost)

    def tokens_json(self) -> dict[str, int | None]:
        return {kind: getattr(self, kind) for kind in TOKEN_KINDS}


N = TypeVar("N", int, float)


def _plus(left: N | None, right: N | None) -> N | None:
    if left is None:
        return right
    return left if right is None else left + right


@dataclass
class Usage:
    """What one conversation recorded: figures per model, and tool calls by tool name."""

    by_model: dict[str, Tokens] = field(default_factory=dict)
    tool_calls: Counter[str] = field(default_factory=Counter)

    def model(self, name: str) -> Tokens:
        tokens = self.by_model.get(name)
        if tokens is None:
            tokens = self.by_model[name] = Tokens()
        return tokens

    def add(self, other: Usage) -> None:
        for name, tokens in other.by_model.items():
            self.model(name).add(tokens)
        self.tool_calls.update(other.tool_calls)

    def total(self) -> Tokens:
        total = Tokens()
        for tokens in self.by_model.values():
            total.add(tokens)
        return total

    def to_json(self) -> dict[str, Any]:
        total = self.total()
        return {
            "models": sorted(self.by_model),
            "requests": total.requests,
            "tokens": total.tokens_json(),
            "cost_usd": total.cost,
            "tool_calls": dict(sorted(self.tool_calls.items())),
        }


@dataclass
class AgentMetrics:
    """One agent conversation's usage, where it was read, and its sub-agents' (recursively)."""

    source: str
    """What the figures were read from: ``claude transcript``, ``opencode database``, ..."""
    estimated: bool = False
    files: list[str] = field(default_factory=list)
    conversation_ids: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    subagents: list[SubAgent] = field(default_factory=list)

    def with_subagents(self) -> Usage:
        """This conversation's usage plus every sub-agent's, at any depth."""
        total = Usage()
        total.add(self.usage)
        for sub in self.subagents:
            total.add(sub.metrics.with_subagents())
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "estimated": self.estimated,
            "files": self.files,
            "conversation_ids": self.conversation_ids,
            **self.usage.to_json(),
            "subagents": [sub.to_json() for sub in self.subagents],
        }


@dataclass
class SubAgent:
    id: str
    metrics: AgentMetrics
    status: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, **self.metrics.to_json()}


@dataclass(frozen=True)
class Notice:
    """Something a reader could not read fully; it still returns what it could.

    ``reason``: ``missing``, ``no_conversation``, ``partial``, ``unreadable_lines``,
    ``unknown_format``, ``unreadable``, ``not_regular``, ``line_too_long``,
    ``too_complex``, ``bad_values`` or ``too_large`` (docs/metrics.md)."""

    reason: str
    path: str
    count: int = 0
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "path": self.path, "count": self.count,
                "detail": self.detail}


@dataclass
class ReadResult:
    """A reader's answer: the metrics (``None`` when nothing could be read) and notices."""

    metrics: AgentMetrics | None
    notices: list[Notice] = field(default_factory=list)
