"""``gz-ia exec -- CMD ARGS...``: run a command as a session in an isolated worktree."""

from __future__ import annotations

import os
import shlex
from typing import Annotated

import typer

from gzia.cli import output
from gzia.cli.run_options import (
    Background,
    NoOutputTimeout,
    Timeout,
    background_options,
    report_started,
)
from gzia.cli.run_report import configured_watchdog, report_run, workspace_label
from gzia.contract import MissingRequiredError
from gzia.i18n import t
from gzia.sessions.record import SessionRecord
from gzia.sessions.workspace import Workspace

app = typer.Typer(add_completion=False)


@app.command(
    "exec",
    help="Run a command as a session in an isolated worktree: gz-ia exec -- CMD ARGS...",
    context_settings={"allow_interspersed_args": False},
)
def exec_command(  # noqa: PLR0917 - typer maps each flag to one parameter
    command: Annotated[list[str] | None, typer.Argument(help="The command and its arguments.",
                                                        show_default=False)] = None,
    directory: Annotated[str | None, typer.Option("-d", "--dir",
                                                  help="Project directory.")] = None,
    provider: Annotated[str, typer.Option("--provider", help="Driver that runs the command.")]
    = "shell",
    background: Background = False,
    timeout: Timeout = None,
    no_output_timeout: NoOutputTimeout = None,
) -> None:
    from gzia.drivers.base import Permission
    from gzia.drivers.registry import get_driver
    from gzia.sessions.runner import SessionRequest, start_session

    if not command:
        raise MissingRequiredError("run.missing_command", details={"argument": "CMD"})
    request = SessionRequest(
        directory, get_driver(provider), Permission.SUPERVISED, command=command, mode="exec",
        pty=background or no_output_timeout is not None or os.isatty(0),
        output_to_stderr=output.is_json(),
        background=background_options(background),
    )

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        output.progress(t("run.exec_launch", command=shlex.join(command), id=record.id,
                          workspace=workspace_label(workspace)))

    run = start_session(request, watchdog=configured_watchdog(timeout, no_output_timeout),
                        on_launch=None if background else launched)
    if background:
        report_started(run)
    else:
        report_run(run)
