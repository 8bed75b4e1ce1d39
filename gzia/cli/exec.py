"""``gz-ia exec -- CMD ARGS...``: run a command as a session in an isolated worktree."""

from __future__ import annotations

import os
import shlex
from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.run_options import (
    AgentExitCode,
    AllowPush,
    Background,
    Direct,
    NoOutputTimeout,
    Profiles,
    ProjectDir,
    Timeout,
    report_outcome,
)
from gzia.cli.run_report import (
    warn_at_launch,
)
from gzia.cli.start_options import IdempotencyKey, Labels, parsed_labels, valid_key
from gzia.contract import InvalidInputError, MissingRequiredError
from gzia.drivers.base import Driver
from gzia.i18n import N_, gettext
from gzia.sessions.record import SessionRecord
from gzia.sessions.run_settings import background_options, configured_watchdog, push_allowed
from gzia.sessions.workspace import Workspace
from gzia.views.launch import workspace_label

if TYPE_CHECKING:
    from gzia.sessions.run import LaunchCallback

app = typer.Typer(add_completion=False)


@app.command(
    "exec",
    help="Run a command as a session in an isolated worktree: gz-ia exec -- CMD ARGS...",
    context_settings={"allow_interspersed_args": False},
)
def exec_command(  # noqa: PLR0917 - typer maps each flag to one parameter
    command: Annotated[list[str] | None, typer.Argument(help="The command and its arguments.",
                                                        show_default=False)] = None,
    directory: ProjectDir = None,
    provider: Annotated[str, typer.Option("--provider", help="Driver that runs the command.")]
    = "shell",
    allow_push: AllowPush = False,
    label: Labels = None,
    idempotency_key: IdempotencyKey = None,
    background: Background = False,
    timeout: Timeout = None,
    no_output_timeout: NoOutputTimeout = None,
    profiles: Profiles = None,
    exit_code: AgentExitCode = False,
    direct: Direct = False,
) -> None:
    from gzia.drivers.base import Permission
    from gzia.drivers.registry import get_driver
    from gzia.sessions.run import SessionRequest, start_session

    if not command:
        raise MissingRequiredError(N_("missing command: gz-ia exec -- CMD [ARGS...]"),
                                   details={"argument": "CMD"})
    driver = command_driver(get_driver(provider), command)
    request = SessionRequest(
        directory, driver, Permission.SUPERVISED, command=command, mode="exec",
        pty=background or no_output_timeout is not None or os.isatty(0),
        output_to_stderr=output.is_json(), allow_push=push_allowed(allow_push),
        labels=parsed_labels(label), idempotency_key=valid_key(idempotency_key),
        background=background_options(background),
        profiles=tuple(profiles or ()), direct=direct,
    )
    run = start_session(request, watchdog=configured_watchdog(timeout, no_output_timeout),
                        on_launch=launch_report(command, background=background))
    report_outcome(run, background=background, agent_exit_code=exit_code)


def launch_report(command: list[str], *, background: bool) -> LaunchCallback:
    """What exec says as the command starts: the launch warnings and, in the foreground,
    what runs where."""

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_at_launch(workspace)
        if background:  # the record printed on return says what runs where
            return
        output.progress(gettext("❯❯ Running {command} in session {id} (Workspace: {workspace})...",
                                command=shlex.join(command), id=record.id,
                                workspace=workspace_label(workspace)))

    return launched


def command_driver(driver: Driver, command: list[str]) -> Driver:
    """``driver``, if it runs commands; any other is a usage error (exit 2): an agent
    driver would start its agent and drop the command."""
    from gzia.drivers.base import runs_commands

    if runs_commands(driver):
        return driver
    raise InvalidInputError(
        N_("the {provider} driver cannot run a command: exec runs commands with a driver that runs "
           "them (shell)"),
        provider=driver.id,
        hint_key=N_("start {provider} with 'gz-ia chat -p {provider}', or leave out --provider to "
                    "run the command with the shell"),
        details={"provider": driver.id, "command": command},
    )
