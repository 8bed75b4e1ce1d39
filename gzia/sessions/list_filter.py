"""Which sessions ``session list`` shows: ``--status``, ``--provider``, ``--label``,
``--name`` (a glob), ``--since`` and ``--limit``.

``--status merged`` selects the sessions people read ``merged`` (``completed`` and merged
since they last finished: :attr:`~gzia.sessions.record.SessionRecord.is_merged`); their
record's status stays ``completed``, so ``--status completed`` still selects them too.

Filters of one kind are alternatives (``--status failed --status lost``); different kinds
must all hold, and so must every ``--label``. They apply to the records as reconciled
(a dead ``running`` session is ``lost`` before ``--status`` looks at it); ``--limit``
then keeps the newest N matches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.sessions.labels import has_labels, parse_labels
from gzia.sessions.naming import name_matches
from gzia.sessions.record import SessionRecord, Status, parse_rfc3339
from gzia.sessions.store import start_key

DURATION = re.compile(r"(\d{1,9})([smhdw])")
SECONDS_PER_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
MERGED = "merged"
STATUS_WORDS = (*(s.value for s in Status), MERGED)
"""What ``--status`` accepts: every record status, and ``merged``."""
"""``--status merged``: not a record status, what people read for a merged session."""


@dataclass(frozen=True)
class ListFilter:
    statuses: frozenset[str] = frozenset()
    providers: frozenset[str] = frozenset()
    labels: dict[str, str] = field(default_factory=dict)
    since: tuple[str, str] | None = None
    """:func:`~gzia.sessions.store.start_key` of the earliest start wanted."""
    limit: int | None = None
    names: frozenset[str] = frozenset()
    """``--name`` globs (:mod:`gzia.sessions.naming`)."""

    @property
    def is_empty(self) -> bool:
        return self == ListFilter()

    def matches(self, record: SessionRecord) -> bool:
        return ((not self.statuses or record.status in self.statuses
                 or (MERGED in self.statuses and record.is_merged))
                and (not self.providers or record.provider in self.providers)
                and (not self.labels or has_labels(record.labels, self.labels))
                and (self.since is None or start_key(record) >= self.since)
                and (not self.names or name_matches(record, self.names)))


@dataclass(frozen=True)
class Filtered:
    records: list[SessionRecord]
    capped: bool
    """``--limit`` left matching sessions out."""


def apply_filter(records: list[SessionRecord], wanted: ListFilter) -> Filtered:
    """The records (newest first) that match, at most ``limit`` of them."""
    matching = [r for r in records if wanted.matches(r)]
    if wanted.limit is not None and len(matching) > wanted.limit:
        return Filtered(matching[:wanted.limit], capped=True)
    return Filtered(matching, capped=False)


def build_filter(*, statuses: Sequence[str] = (), providers: Sequence[str] = (),
                 labels: Sequence[str] = (), since: str | None = None,
                 limit: int | None = None, names: Sequence[str] = ()) -> ListFilter:
    """A filter from the command line's values, each validated (``INVALID_INPUT``)."""
    known = list(STATUS_WORDS)
    for status in statuses:
        if status not in known:
            raise InvalidInputError(N_("invalid status '{value}': expected one of {allowed}"),
                                    value=status,
                                    allowed=", ".join(known),
                                    details={"option": "--status", "value": status})
    if limit is not None and limit < 1:
        raise InvalidInputError(N_("invalid --limit {value}: expected 1 or more"), value=limit,
                                details={"option": "--limit", "value": limit})
    return ListFilter(frozenset(statuses), frozenset(providers), parse_labels(labels),
                      None if since is None else since_key(since), limit, frozenset(names))


def since_key(text: str) -> tuple[str, str]:
    """``--since``: a duration back from now (``90s``, ``15m``, ``2h``, ``7d``, ``1w``) or
    an RFC 3339 time (``2026-03-01T10:00:00Z``), as a start key."""
    from datetime import UTC, datetime, timedelta


    duration = DURATION.fullmatch(text.strip())
    try:
        if duration is not None:
            amount, unit = int(duration.group(1)), duration.group(2)
            moment = datetime.now(UTC) - timedelta(seconds=amount * SECONDS_PER_UNIT[unit])
        else:
            moment = parse_rfc3339(text).astimezone(UTC)
    except (ValueError, OverflowError):
        raise InvalidInputError(N_("invalid --since '{value}': expected an RFC 3339 time or a "
                                   "duration such as 30m, 2h, 7d"),
                                value=text,
                                details={"option": "--since", "value": text}) from None
    fraction = f".{moment.microsecond:06d}".rstrip("0")  # ".5" is where ".5", ".50" start
    return moment.strftime("%Y-%m-%dT%H:%M:%S"), fraction.rstrip(".")
