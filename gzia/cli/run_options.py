"""Options chat, exec and resume share: ``-b/--background`` and the watchdog's timeouts."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.numbers import Seconds
from gzia.i18n import t

if TYPE_CHECKING:
    from gzia.sessions.background import BackgroundOptions
    from gzia.sessions.run import SessionRun

Background = Annotated[bool, typer.Option(
    "-b", "--background",
    help="Run under a detached holder and return at once with the session record.")]
Timeout = Annotated[float | None, typer.Option(
    "--timeout", click_type=Seconds(positive=True), metavar="SECONDS",
    help="Stop the agent (tree kill) after this many seconds; end_reason timeout.")]
NoOutputTimeout = Annotated[float | None, typer.Option(
    "--no-output-timeout", click_type=Seconds(positive=True), metavar="SECONDS",
    help="Stop the agent after this many seconds without output (PTY runs); "
         "end_reason no_output_timeout.")]


def background_options(background: bool) -> BackgroundOptions | None:
    """What a ``-b`` run needs from config and the terminal; None without ``-b``."""
    if not background:
        return None
    from gzia.config import load_config
    from gzia.sessions.background import BackgroundOptions

    return BackgroundOptions(log_max_bytes=int(load_config().get("session_log_max_bytes")),
                             window=_window())


def _window() -> tuple[int, int]:
    for fd in (1, 0, 2):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        if size.lines > 0 and size.columns > 0:
            return size.lines, size.columns
    return 24, 80


def report_started(run: SessionRun) -> None:
    """A ``-b`` run: the record (``status: running``) and, for people, what to do next."""
    if run.reused is not None:  # the idempotency key's session: reported as it is
        from gzia.cli.run_report import report_run

        report_run(run)
        return
    record = run.record

    def human() -> None:
        output.line(t("run.background_started", id=record.id, pid=record.pid))
        output.line(t("run.background_next", id=record.id))

    output.emit(record.to_json(), human)
