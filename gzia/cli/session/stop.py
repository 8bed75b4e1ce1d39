"""``gz-ia session stop <id> [--timeout S]``: the agent is asked to end as a person would
(its driver's quit keys), then killed as ``session kill`` kills (docs/sessions.md)."""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.numbers import Seconds
from gzia.cli.session.common import open_store, session_command
from gzia.cli.session.control import (
    KEEP_CHILDREN,
    warn_if_process_only,
    warn_if_still_stopping,
)

STOP_TIMEOUT = click.option("--timeout", type=Seconds(), metavar="SECONDS",
                            help="How long the agent has to end on its own (default: the "
                                 "stop_timeout setting).")
"""``--timeout`` of the commands that stop an agent as a person would (stop, pause)."""


def stop_timeout_s(timeout: float | None) -> float:
    """``--timeout`` as given, else the ``stop_timeout`` setting."""
    from gzia.config import load_config

    return float(load_config().get("stop_timeout")) if timeout is None else timeout


@session_command(
    "stop", help="Ask a running session's agent to end as a person would (its quit keys), "
                 "then kill it if it has not ended in time; record it stopped or killed.",
    options=[STOP_TIMEOUT, KEEP_CHILDREN])
def stop_command(session: str, timeout: float | None, keep_children: bool,
                 directory: str | None) -> None:
    from gzia.sessions.graceful_stop import stop_gracefully
    from gzia.sessions.ids import validate_session_ref
    from gzia.views.attention import stop_line

    validate_session_ref(session)
    timeout_s = stop_timeout_s(timeout)
    outcome = stop_gracefully(open_store(directory), session, timeout_s,
                              keep_children=keep_children)
    if outcome.kill is not None:
        warn_if_process_only(outcome.record.id, outcome.kill.target)
    warn_if_still_stopping(outcome.record)
    output.emit({**outcome.record.to_json(), "stop": outcome.to_json()},
                human=lambda: output.line(stop_line(outcome, timeout_s)))
