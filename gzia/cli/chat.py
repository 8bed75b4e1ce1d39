"""``gz-ia chat``: a new session with an agent, in the foreground, on this terminal."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import command
from gzia.cli.run_options import project_dir, run_options, session_request, watchdog_of
from gzia.cli.run_report import report_outcome, warn_at_launch
from gzia.contract import Permission, WarningCode
from gzia.i18n import N_, gettext
from gzia.sessions.run_options import RunOptions

if TYPE_CHECKING:  # imported when a chat starts, not when it is only parsed or completed
    from gzia.drivers.base import Driver
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.run import LaunchCallback
    from gzia.sessions.workspace import Workspace


@command("chat", help="Start a new interactive chat with an agent ({agents}) in an isolated "
                      "worktree.")
@click.option("-p", "--provider", help="Agent to run.", shell_complete=completers.providers)
@click.option("-m", "--perm", help="readonly, supervised or autonomous.",
              shell_complete=completers.permissions)
@click.option("-i", "--prompt", help="Initial prompt.")
@project_dir
@run_options("name", "allow_push", "no_mcp", "labels", "idempotency_key", "background", "timeout",
             "no_output_timeout", "profiles", "direct", "exit_code", "no_notify",
             "sandbox", "base", "fetch", "skip_setup")
def app(provider: str | None, perm: str | None, prompt: str | None, directory: str | None,
         run: RunOptions) -> None:
    from gzia.sessions.run import start_session

    driver, permission = chosen_agent(provider, perm)
    request = session_request(directory, driver, permission, run, mcp=True,
                              prompt=task_for(driver, prompt), mode="chat",
                              pty=run.background or run.no_output_timeout_s is not None)
    started = start_session(request, watchdog=watchdog_of(run),
                            on_launch=launch_report(driver, permission, background=run.background))
    report_outcome(started, background=run.background, agent_exit_code=run.exit_code)


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
        from gzia.views.launch import chat_launch_line

        output.progress(chat_launch_line(driver, permission, workspace))

    return launched


def task_for(driver: Driver, prompt: str | None) -> str | None:
    """The task for the agent: ``-i``, else asked on a terminal. A driver that takes no
    prompt (the shell) is not asked, and a ``-i`` given to it is reported as ignored."""
    from gzia.drivers.base import takes_prompt

    if not takes_prompt(driver):
        if prompt is not None:
            output.warn(WarningCode.INVALID_INPUT,
                        N_("{name} takes no prompt: -i/--prompt is ignored"),
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
