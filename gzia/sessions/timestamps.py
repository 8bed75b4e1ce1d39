"""Times in records and events: RFC 3339 strings, as the original gz-ia wrote them (Go's
RFC3339Nano) and as this version writes them (microseconds, UTC).

``datetime`` is imported inside each function, not at the top: listing in JSON needs none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import datetime


def now_rfc3339() -> str:
    """The current time as RFC 3339 in UTC with microseconds (``...Z``)."""
    from datetime import UTC, datetime  # here, not at the top: listing in JSON needs none

    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_rfc3339(text: str) -> datetime:
    """Parse RFC 3339 / Go's RFC3339Nano (nanoseconds are cut to microseconds)."""
    from datetime import UTC, datetime

    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    date_part, sep, rest = value.partition(".")
    if sep:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        fraction, zone = rest[:digits], rest[digits:]
        value = f"{date_part}.{fraction[:6].ljust(6, '0')}{zone}" if fraction else date_part + zone
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def elapsed_ms(started_at: str, finished_at: str | None = None) -> int | None:
    """Milliseconds between two RFC 3339 times (``finished_at`` defaults to now)."""
    from datetime import UTC, datetime

    try:
        start = parse_rfc3339(started_at)
        end = parse_rfc3339(finished_at) if finished_at else datetime.now(UTC)
    except ValueError:
        return None
    return max(0, int((end - start).total_seconds() * 1000))
