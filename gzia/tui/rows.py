"""What the sessions table shows of a record: one tuple of short texts per session.

Times are measured against the app's clock (``now``, seconds since the epoch), so a
frame is the same every time it is drawn for the same records and the same clock. The
table reads that clock in steps of :data:`TICK_S` (:func:`ticked`).
"""

from __future__ import annotations

from gzia.i18n import N_, NC_
from gzia.sessions.record import SessionRecord, Status, parse_rfc3339
from gzia.views.sessions import format_duration, state_text, status_word

COLUMN_TITLES = (N_("ID"), N_("STATE"), N_("STATUS"), NC_("tui.col_provider", "PROVIDER"),
                 N_("AGE"), N_("DURATION"), N_("LABELS"), N_("BRANCH"), N_("+/-BASE"))
"""The table's columns, by their titles' message keys, in the order :func:`row_of` fills."""

ROWS_SHOWN = 200
"""The table's most rows: the newest sessions the filter matches (the title says how many
more there are). Drawing thousands of rows would make every frame and key press wait."""

WIDE_ENOUGH_FOR_BRANCH = 100
"""Narrower terminals (80 columns) leave out the branch: gz-ia names it ``harness/<id>``,
so the id says it; the detail screen shows it."""


TICK_S = 10
"""How often the table's ages and running durations move on. Any change to a Textual
table redraws all its visible rows, and keys wait meanwhile (bench/tui.py: about 0.1 s on
the development machine, over any single cell): a refresh changes the table only when a
session changed, or once per tick, not at each refresh because time has passed."""


def ticked(now: float) -> float:
    """``now`` down to the last whole :data:`TICK_S`: every running duration and age
    moves on at the same moments."""
    return now - now % TICK_S


def columns_for(width: int) -> tuple[int, ...]:
    """Which of :data:`COLUMN_TITLES` a terminal ``width`` columns wide shows."""
    branch = COLUMN_TITLES.index(N_("BRANCH"))
    return tuple(i for i in range(len(COLUMN_TITLES))
                 if width >= WIDE_ENOUGH_FOR_BRANCH or i != branch)


def row_of(record: SessionRecord, now: float,
           counts: tuple[int, int] | None, depth: int = 0) -> tuple[str, ...]:
    """``counts``: commits on the session's branch its base lacks, and the other way round;
    ``depth``: how deep a sub-session is under its parent (its id is indented)."""
    shown_id = "  " * (depth - 1) + "└ " + record.id if depth else record.id
    return (shown_id, state_text(record), status_word(record), record.provider or "-",
            age_of(record, now),
            duration_at(record, now), short_labels(record), record.branch_name or "-",
            f"+{counts[0]}/-{counts[1]}" if counts else "-")


def attention_rank(record: SessionRecord) -> int:
    """Where a session's group comes in the table: 0, its agent waits for the person; 1,
    it runs (working, idle, starting); 2, it has ended."""
    if not record.is_running:
        return 2
    return 0 if record.state == "waiting" else 1


def attention_first(records: list[SessionRecord]) -> list[SessionRecord]:
    """``records`` (newest first) by :func:`attention_rank`, newest first within each
    group (the sort is stable)."""
    return sorted(records, key=attention_rank)


def waiting_ids(records: list[SessionRecord]) -> frozenset[str]:
    """The sessions whose agent waits for the person."""
    return frozenset(r.id for r in records if attention_rank(r) == 0)


def seconds_since(stamp: str, now: float) -> float | None:
    try:
        return max(0.0, now - parse_rfc3339(stamp).timestamp())
    except ValueError:
        return None


def age_of(record: SessionRecord, now: float) -> str:
    """How long ago it started: ``45s``, ``12m``, ``3h``, ``2d``."""
    seconds = seconds_since(record.started_at, now)
    if seconds is None:
        return "-"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def duration_at(record: SessionRecord, now: float) -> str:
    """As ``session list`` shows it, a running session's measured up to ``now``."""
    if record.status == Status.LOST:
        return "-"
    if record.duration_ms is not None:
        return format_duration(record.duration_ms)
    seconds = seconds_since(record.started_at, now) if record.is_running else None
    return format_duration(int(seconds * 1000)) if seconds is not None else "-"


LABELS_SHOWN = 24
"""The labels cell's widest; the filter still searches them whole."""


def labels_text(record: SessionRecord) -> str:
    return ",".join(f"{k}={v}" for k, v in (record.labels or {}).items()) or "-"


def short_labels(record: SessionRecord) -> str:
    text = labels_text(record)
    return text if len(text) <= LABELS_SHOWN else text[:LABELS_SHOWN - 1] + "…"


def matches(record: SessionRecord, text: str, status: str | None) -> bool:
    """The filter: ``status`` exactly (when given) and ``text`` in any shown field."""
    if status and record.status != status:
        return False
    if not text:
        return True
    needle = text.lower()
    fields = (record.id, record.provider, record.branch_name or "", labels_text(record),
              record.initial_prompt or "", record.name or "")
    return any(needle in value.lower() for value in fields)
