"""``gz-ia chat``: a new session with an agent, in the foreground, on this terminal."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.run_options import (
    AgentExitCode,
    AllowPush,
    Background,
    Direct,
    NoMcp,
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
from gzia.drivers.base import Driver, Permission
from gzia.i18n import N_, gettext
from gzia.sessions.record import SessionRecord
from gzia.sessions.run_settings import background_options, configured_watchdog, push_allowed
from gzia.sessions.workspace import Workspace
from gzia.views.launch import chat_launch_line

if TYPE_CHECKING:
    from gzia.sessions.run import LaunchCallback

app = typer.Typer(add_completion=False)


@app.command(help="Start a new interactive chat with an agent (agy, claude, opencode, "
                  "pi-agent) in an isolated worktree.")
def chat(  # noqa: PLR0917 - typer maps each flag to one parameter
    provider: Annotated[str | None, typer.Option("-p", "--provider",
                                                 help="Agent to run.")] = None,
    perm: Annotated[str | None, typer.Option("-m", "--perm",
                                             help="readonly, supervised or autonomous.")] = None,
    prompt: Annotated[str | None, typer.Option("-i", "--prompt", help="Initial prompt.")] = None,
    directory: ProjectDir = None,
    allow_push: AllowPush = False,
    no_mcp: NoMcp = False,
    label: Labels = None,
    idempotency_key: IdempotencyKey = None,
    background: Background = False,
    timeout: Timeout = None,
    no_output_timeout: NoOutputTimeout = None,
    profiles: Profiles = None,
    exit_code: AgentExitCode = False,
    direct: Direct = False,
) -> None:
    from gzia.sessions.mcp_command import server_command
    from gzia.sessions.run import SessionRequest, start_session

    driver, permission = chosen_agent(provider, perm)
    request = SessionRequest(directory, driver, permission, prompt=task_for(driver, prompt),
                             mode="chat", output_to_stderr=output.is_json(),
                             allow_push=push_allowed(allow_push), labels=parsed_labels(label),
                             idempotency_key=valid_key(idempotency_key),
                             mcp_server=server_command(no_mcp),
                             pty=background or no_output_timeout is not None,
                             background=background_options(background),
                             profiles=tuple(profiles or ()), direct=direct)

    run = start_session(request, watchdog=configured_watchdog(timeout, no_output_timeout),
                        on_launch=launch_report(driver, permission, background=background))
    report_outcome(run, background=background, agent_exit_code=exit_code)


def chosen_agent(provider: str | None, perm: str | None) -> tuple[Driver, Permission]:
    """``-p`` and ``-m``, else the ``default_provider`` and ``default_permission`` settings."""
    from gzia.config import load_config
    from gzia.drivers.registry import (
        checked_provider_setting,
        default_provider,
        get_driver,
        parse_permission,
    )

    config = load_config()
    if provider is None and (configured := config.value("default_provider")).value:
        provider = checked_provider_setting(configured.value, config.origin(configured))
    driver = get_driver(default_provider(provider))
    return driver, parse_permission(perm or config.get("default_permission"))


def launch_report(driver: Driver, permission: Permission, *,
                  background: bool) -> LaunchCallback:
    """What chat says as the agent starts: the launch warnings and, in the foreground,
    which agent runs where (the TUI says the same on the terminal it hands over)."""

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_at_launch(workspace)
        if background:  # the record printed on return says what runs where
            return
        output.progress(chat_launch_line(driver, permission, workspace))

    return launched


def task_for(driver: Driver, prompt: str | None) -> str | None:
    """The task for the agent: ``-i``, else asked on a terminal. A driver that takes no
    prompt (the shell) is not asked, and a ``-i`` given to it is reported as ignored."""
    from gzia.drivers.base import takes_prompt

    if not takes_prompt(driver):
        if prompt is not None:
            output.warn("INVALID_INPUT", N_("{name} takes no prompt: -i/--prompt is ignored"),
                        name=driver.display_name,
                        details={"provider": driver.id, "option": "--prompt"})
        return None
    if prompt is None and os.isatty(0):
        prompt = ask_task()
    return prompt or None


def ask_task() -> str:
    """Ask for the task on the terminal; Ctrl+C here is KeyboardInterrupt (exit 130)."""
    sys.stderr.write(gettext("[?] Describe the task for the agent: "))
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not answer:  # Ctrl+D: no task, the agent starts without one
        sys.stderr.write("\n")
    return answer.strip()
