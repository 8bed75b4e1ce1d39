"""``gz-ia exec -- CMD ARGS...``: run a command as a session in an isolated worktree."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import argument, command
from gzia.cli.run_options import project_dir, run_options, session_request, watchdog_of
from gzia.cli.run_report import report_outcome, warn_at_launch
from gzia.contract import InvalidInputError, MissingRequiredError
from gzia.i18n import N_
from gzia.sessions.run_options import RunOptions

if TYPE_CHECKING:  # the run machinery is imported when a run starts, not for --help
    from gzia.drivers.base import Driver
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.run import LaunchCallback
    from gzia.sessions.workspace import Workspace


@command(
    "exec",
    help="Run a command as a session in an isolated worktree: gz-ia exec -- CMD ARGS...",
    context_settings={"allow_interspersed_args": False},
)
@argument("command", nargs=-1, help="The command and its arguments.")
@project_dir
@click.option("--provider", default="shell", help="Driver that runs the command.",
              shell_complete=completers.providers)
@run_options("name", "allow_push", "labels", "idempotency_key", "background", "timeout",
             "no_output_timeout", "profiles", "direct", "exit_code", "no_notify",
             "sandbox", "base", "fetch", "skip_setup")
def app(command: tuple[str, ...], directory: str | None, provider: str,
                 run: RunOptions) -> None:
    from gzia.contract import Permission
    from gzia.drivers.registry import get_driver
    from gzia.sessions.run import start_session

    if not command:
        raise MissingRequiredError(N_("missing command: gz-ia exec -- CMD [ARGS...]"),
                                   details={"argument": "CMD"})
    argv = list(command)
    driver = command_driver(get_driver(provider), argv)
    request = session_request(
        directory, driver, Permission.SUPERVISED, run, mcp=False, command=argv, mode="exec",
        pty=run.background or run.no_output_timeout_s is not None or os.isatty(0))
    started = start_session(request, watchdog=watchdog_of(run),
                            on_launch=launch_report(argv, background=run.background))
    report_outcome(started, background=run.background, agent_exit_code=run.exit_code)


def launch_report(command: list[str], *, background: bool) -> LaunchCallback:
    """What exec says as the command starts: the launch warnings and, in the foreground,
    what runs where."""

    from gzia.views.launch import exec_launch_line

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_at_launch(workspace)
        if background:  # the record printed on return says what runs where
            return
        output.progress(exec_launch_line(command, record.id, workspace))

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
