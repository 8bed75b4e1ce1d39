"""Human renderings of ``session metrics`` and ``metrics``."""

from __future__ import annotations

from gzia.cli import output
from gzia.i18n import N_, NC_, gettext, ngettext
from gzia.metrics.model import AgentMetrics, SubAgent, Tokens, Usage
from gzia.metrics.project import Figures, ProjectMetrics
from gzia.metrics.session import SessionMetrics
from gzia.views.sessions import exit_code_text, format_duration
from gzia.views.words import status_text

_MSG_COL: dict[object, str] = {
    "cache_read": N_("CACHE R"),
    "cache_write": N_("CACHE W"),
    "cost": N_("COST"),
    "duration": N_("DURATION"),
    "id": N_("ID"),
    "input": N_("INPUT"),
    "key": N_("GROUP"),
    "output": N_("OUTPUT"),
    "provider": NC_("metrics.col_provider", "PROVIDER"),
    "requests": N_("REQUESTS"),
    "sessions": N_("SESSIONS"),
    "status": N_("STATUS"),
    "tools": N_("TOOLS"),
}


_MSG_LABEL: dict[object, str] = {
    "changes": N_("Changes:"),
    "cost": N_("Cost:"),
    "duration": N_("Duration:"),
    "exit_code": N_("Exit code:"),
    "models": N_("Models:"),
    "requests": N_("Requests:"),
    "source": N_("Source:"),
    "status": N_("Status:"),
    "subagents": N_("Sub-agents:"),
    "tokens": N_("Tokens:"),
    "tools": N_("Tool calls:"),
    "totals": N_("With sub-agents:"),
}

LABELS = ("status", "duration", "exit_code", "changes", "source", "models", "requests",
          "tokens", "cost", "tools", "subagents", "totals")


def render_session(m: SessionMetrics) -> None:
    r = m.record
    output.line(gettext("❯ Metrics of session {id} ({provider})", id=r.id,
                        provider=r.provider or "-"))
    rows: list[tuple[str, str]] = [
        ("status", status_text(r.status)),
        ("duration", _duration(m.duration_ms)),
        ("exit_code", exit_code_text(r.exit_code)),
        ("changes", _changes(m)),
    ]
    if m.agent is None:
        rows.append(("source", gettext("- (no transcript for this agent)")))
    else:
        rows += _agent_rows(m.agent)
    width = max(len(gettext(_MSG_LABEL[key])) for key in LABELS) + 1
    for key, value in rows:
        output.line(f"{gettext(_MSG_LABEL[key]):<{width}}{value}")
    if m.agent is not None:
        for sub in m.agent.subagents:
            _render_subagent(sub, "")


def _agent_rows(agent: AgentMetrics) -> list[tuple[str, str]]:
    source = agent.source
    if agent.estimated:
        source = gettext("{source} (estimated: characters / 4)", source=source)
    total = agent.usage.total()
    rows = [("source", source),
            ("models", ", ".join(sorted(agent.usage.by_model)) or "-"),
            ("requests", str(total.requests)),
            ("tokens", _tokens(total)),
            ("cost", _cost(total.cost)),
            ("tools", _tools(agent.usage) or gettext("none")),
            ("subagents", str(len(agent.subagents)) if agent.subagents else gettext("none"))]
    if agent.subagents:
        everything = agent.with_subagents().total()
        rows.append(("totals", f"{everything.requests} · {_tokens(everything)}"))
    return rows


def _render_subagent(sub: SubAgent, indent: str) -> None:
    total = sub.metrics.usage.total()
    output.line(indent + gettext("  {id} [{status}]: requests {requests} · input {input} · output "
                                 "{output} · tool calls {tools}",
                                 id=sub.id, status=sub.status or "-",
                                 requests=total.requests, input=total.input, output=total.output,
                                 tools=sum(sub.metrics.usage.tool_calls.values())))
    for child in sub.metrics.subagents:
        _render_subagent(child, indent + "  ")


def _changes(m: SessionMetrics) -> str:
    if m.changes is None:
        return gettext("- (direct mode: no isolated diff)") if not m.record.is_isolated else "-"
    return ngettext("{count} file, +{insertions} -{deletions}",
                    "{count} files, +{insertions} -{deletions}", m.changes.files,
                    insertions=m.changes.insertions, deletions=m.changes.deletions)


def _tokens(tokens: Tokens) -> str:
    reasoning = "-" if tokens.reasoning is None else str(tokens.reasoning)
    return gettext("input {input} · output {output} · cache read {cache_read} · cache write "
                   "{cache_write} · reasoning {reasoning}",
                   input=tokens.input, output=tokens.output,
                   cache_read=tokens.cache_read, cache_write=tokens.cache_write,
                   reasoning=reasoning)


def _tools(usage: Usage) -> str:
    return ", ".join(f"{name} {count}" for name, count in sorted(usage.tool_calls.items()))


def _cost(cost: float | None) -> str:
    return gettext("-") if cost is None else f"${cost:.4f}"


def _duration(ms: int | None) -> str:
    return format_duration(ms) if ms is not None else "-"


NUMBERS = ("requests", "input", "output", "cache_read", "cache_write", "tools", "cost")


def render_project(result: ProjectMetrics) -> None:
    if not result.sessions:
        output.line(gettext("✧ No sessions match."))
        return
    header = ["id", "provider", "status", "duration", *NUMBERS]
    rows = [[m.record.id, m.record.provider or "-", status_text(m.record.status),
             _duration(m.duration_ms),
             *_numbers(_figures_of(m))] for m in result.sessions]
    rows.append([gettext("Total"), "", "", _duration(result.totals.duration_ms),
                 *_numbers(result.totals)])
    _table(header, rows)
    if result.by is not None:
        output.line()
        output.line(gettext("By {by}:", by=result.by))
        groups = [[key, str(f.sessions), _duration(f.duration_ms), *_numbers(f)]
                  for key, f in result.groups.items()]
        _table(["key", "sessions", "duration", *NUMBERS], groups)
    if result.totals.estimated:
        output.line()
        output.line(gettext("~ estimated (characters / 4)"))


def _figures_of(m: SessionMetrics) -> Figures | None:
    if m.agent is None:
        return None
    return Figures(1, m.duration_ms, m.agent.with_subagents(), m.agent.estimated)


def _numbers(figures: Figures | None) -> list[str]:
    if figures is None:
        return ["-"] * len(NUMBERS)
    total = figures.usage.total()
    mark = "~" if figures.estimated else ""
    tokens = [f"{mark}{value}" for value in
              (total.input, total.output, total.cache_read, total.cache_write)]
    return [str(total.requests), *tokens, str(sum(figures.usage.tool_calls.values())),
            _cost(total.cost)]


def _table(columns: list[str], rows: list[list[str]]) -> None:
    titles = [gettext(_MSG_COL[c]) for c in columns]
    widths = [max(len(cell) for cell in column) for column in zip(titles, *rows, strict=True)]
    for cells in [titles, *rows]:
        output.line("  ".join(f"{cell:<{w}}" for cell, w in zip(cells, widths, strict=True))
                    .rstrip())
