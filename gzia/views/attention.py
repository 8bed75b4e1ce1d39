"""What ``session stop`` says when it is done (the command and the terminal UI's ``k``),
and the line of ``notify test`` for each channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.i18n import N_, gettext
from gzia.sessions.stop_outcome import StopHow, WhyKilled
from gzia.views.words import stop_text

if TYPE_CHECKING:
    from gzia.sessions.graceful_stop import StopOutcome
    from gzia.sessions.notify import Delivery

_MSG_STOPPED: dict[object, str] = {
    StopHow.STOPPED: N_("✓ Session '{id}' {how}: its agent ended when asked."),
    WhyKilled.TIMED_OUT: N_("✓ Session '{id}' (PID {pid}) {how}: its agent had not ended "
                            "{seconds} s after it was asked."),
    WhyKilled.NOT_ASKED: N_("✓ Session '{id}' (PID {pid}) {how}: its agent could not be asked "
                            "to end."),
}
"""The line for each way a stop ends; ``{how}`` is the outcome's word (gzia.views.words)."""

_MSG_DELIVERY: dict[object, str] = {
    True: N_("✓ {channel}: sent"),
    False: N_("✗ {channel}: {detail}"),
}


def stop_line(outcome: StopOutcome, timeout_s: float) -> str:
    key = outcome.why_killed or outcome.how
    return gettext(_MSG_STOPPED[key], id=outcome.record.id, pid=outcome.record.pid,
                   how=stop_text(outcome.how), seconds=f"{timeout_s:g}")


def delivery_lines(deliveries: list[Delivery]) -> list[str]:
    """One line per channel; none configured is said so."""
    if not deliveries:
        return [gettext("No notification channel is configured (notify_command, notify_webhook, "
                        "notify_desktop with notify-send installed).")]
    return [gettext(_MSG_DELIVERY[d.ok], channel=d.channel, detail=d.detail or "") for d in
            deliveries]
