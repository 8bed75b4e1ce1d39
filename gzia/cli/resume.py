"""``gz-ia resume <id>``: continue a session's own conversation in its own workspace."""

from __future__ import annotations

from typing import Annotated

import typer

from gzia.cli import output
from gzia.cli.mcp import NoMcp
from gzia.cli.run_options import (
    Background,
    NoOutputTimeout,
    Timeout,
    background_options,
    report_started,
)
from gzia.cli.run_report import (
    PROFILE_HELP,
    configured_watchdog,
    push_allowed,
    report_run,
    warn_if_unguarded,
)
from gzia.i18n import t
from gzia.sessions.record import SessionRecord
from gzia.sessions.workspace import Workspace
from gzia.supervisor.watchdog import Watchdog

app = typer.Typer(add_completion=False)


@app.command(help="Resume a finished session in its own workspace and conversation.")
def resume(  # noqa: PLR0917 - typer maps each flag to a parameter
    session_id: Annotated[str, typer.Argument(metavar="ID",
                                              help="Session id (or unique prefix).")],
    directory: Annotated[str | None, typer.Option("-d", "--dir",
                                                  help="Project directory.")] = None,
    background: Background = False,
    timeout: Timeout = None,
    no_output_timeout: NoOutputTimeout = None,
    profiles: Annotated[list[str] | None, typer.Option("--profile", metavar="NAME",
                                                       help=PROFILE_HELP)] = None,
    no_mcp: NoMcp = False,
) -> None:
    resume_in_foreground(session_id, directory, background=background, no_mcp=no_mcp,
                         watchdog=configured_watchdog(timeout, no_output_timeout),
                         profiles=tuple(profiles or ()))


def resume_in_foreground(
    session_id: str,
    directory: str | None,
    *,
    background: bool = False,
    watchdog: Watchdog | None = None,
    profiles: tuple[str, ...] = (),
    no_mcp: bool = False,
) -> None:
    from gzia.cli.mcp import server_command
    from gzia.drivers.registry import get_driver
    from gzia.sessions.run import resume_session

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_if_unguarded(workspace)
        if background:  # the record printed on return says what runs where
            return
        output.progress(t("run.resume_launch", id=record.id, dir=workspace.target_dir))

    run = resume_session(
        directory, session_id, driver_for=lambda provider: get_driver(provider or "agy"),
        watchdog=watchdog or configured_watchdog(), on_launch=launched,
        output_to_stderr=output.is_json(), background=background_options(background),
        allow_push=push_allowed(False), profiles=profiles, mcp_server=server_command(no_mcp),
    )
    if background:
        report_started(run)
    else:
        report_run(run)
