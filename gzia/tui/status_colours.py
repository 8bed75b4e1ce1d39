"""The colour of each session status, the style of each agent state and of the sandboxed
mark, in one place.

The sessions table and the detail screen's heading draw a status in its colour; the text
is the record's status as ``session list`` prints it. A session a watchdog stopped
(``--timeout``, ``--no-output-timeout``) reads ``killed`` and is drawn as *timed out*. A
status not in the table is drawn plain: a new one gets its colour by one line here.
``NO_COLOR`` turns every frame monochrome (Textual's filter), so nothing is said by colour
alone.

The colours are RGB values, not the terminal's sixteen named colours: Textual draws a named
colour through its own palette, in which red and magenta are one colour (a failed and a
killed session looked alike) and blue and magenta too. Each value here stays apart from
the others in 24-bit colour, in 256 colours and in the 16 of ``TERM=xterm``, and from the
table's plain text, by its colour alone: italic and dim are no difference (many terminals
draw no italic). tests/tui/test_keys_and_colours.py computes each as the terminal gets it.
Sixteen colours have seven hues to spare on a dark background, for eight statuses: paused
takes the darker yellow, timed out the bright one.
"""

from __future__ import annotations

from rich.text import Text

from gzia.i18n import gettext
from gzia.sessions.record import SessionRecord
from gzia.supervisor.endreason import WATCHDOG_REASONS

TIMED_OUT = "timed out"

STATUS_COLOURS: dict[str, str] = {
    "running": "bold #5fd700",  # green
    "completed": "#00afd7",  # cyan
    "merged": "#5f87ff",  # blue
    "failed": "bold #ff3030",  # red
    "killed": "#d75fd7",  # magenta
    TIMED_OUT: "#ffd700",  # yellow
    "lost": "dim #808080",  # grey
    "paused": "#d78700",  # orange (dark yellow in 16 colours)
}
"""Status (or :data:`TIMED_OUT`) -> Rich style."""


STATE_STYLES: dict[str, str] = {
    "waiting": "bold reverse",
}
"""A running session's agent state -> Rich style: the agent that waits for the person stands
out (an ended run's last state reads ``exited``); the other states are drawn plain."""

SANDBOXED_STYLE = "#87d7af"
"""The ``sandboxed`` mark after a sandboxed session's provider (the CLI's MODE column says
``Sandboxed``; the table has no MODE column)."""


def colour_of(record: SessionRecord) -> str:
    """The style of ``record``'s status ("" for a status the table does not name)."""
    timed_out = record.end_reason in WATCHDOG_REASONS and record.status == "killed"
    if record.is_merged:  # completed, and merged since (gzia.views.sessions.status_word)
        return STATUS_COLOURS["merged"]
    return STATUS_COLOURS.get(TIMED_OUT if timed_out else str(record.status), "")


def coloured_status(record: SessionRecord, text: str | None = None) -> Text:
    """``text`` (default: the status) in the status's colour; never read as markup."""
    return Text.styled(text if text is not None else str(record.status), colour_of(record))


def state_cell(record: SessionRecord, text: str) -> Text:
    """The agent's state, in its style while the session runs (:data:`STATE_STYLES`)."""
    return Text(text, style=STATE_STYLES.get(str(record.state), "") if record.is_running else "")


def provider_cell(record: SessionRecord, text: str) -> Text:
    """The provider, and ``sandboxed`` after it for a session whose agent runs (or ran) in
    a sandbox (its record has ``sandbox``)."""
    cell = Text(text)
    if record.sandbox is not None:
        cell.append(" ")
        cell.append(gettext("sandboxed"), style=SANDBOXED_STYLE)
    return cell
