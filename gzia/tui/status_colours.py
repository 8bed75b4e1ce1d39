"""The colour of each session status, in one table.

The sessions table and the detail screen's heading draw a status in its colour; the text
is the record's status as ``session list`` prints it. A session a watchdog stopped
(``--timeout``, ``--no-output-timeout``) reads ``killed`` and is drawn as *timed out*. A
status not in the table is drawn plain: a new one gets its colour by one line here.
``NO_COLOR`` turns every frame monochrome (Textual's filter), so nothing is said by colour
alone.
"""

from __future__ import annotations

from rich.text import Text

from gzia.sessions.record import SessionRecord
from gzia.supervisor.endreason import WATCHDOG_REASONS

TIMED_OUT = "timed out"

STATUS_COLOURS: dict[str, str] = {
    "running": "bold green",
    "completed": "cyan",
    "merged": "blue",
    "failed": "bold red",
    "killed": "magenta",
    TIMED_OUT: "yellow",
    "lost": "dim",
    "paused": "italic blue",
}
"""Status (or :data:`TIMED_OUT`) -> Rich style."""


def colour_of(record: SessionRecord) -> str:
    """The style of ``record``'s status ("" for a status the table does not name)."""
    timed_out = record.end_reason in WATCHDOG_REASONS and record.status == "killed"
    if record.is_merged:  # completed, and merged since (gzia.views.sessions.status_word)
        return STATUS_COLOURS["merged"]
    return STATUS_COLOURS.get(TIMED_OUT if timed_out else str(record.status), "")


def coloured_status(record: SessionRecord, text: str | None = None) -> Text:
    """``text`` (default: the status) in the status's colour; never read as markup."""
    return Text.styled(text if text is not None else str(record.status), colour_of(record))
