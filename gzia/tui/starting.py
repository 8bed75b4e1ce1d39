"""The new-session form's calls: which agents are installed (``gz-ia drivers``), which
profiles exist (``gz-ia profile list``), the configured defaults, and the start itself,
built as ``gz-ia chat`` builds it (same request, watchdog, MCP wiring and push setting), or
as ``gz-ia exec`` builds it when the form names a command for the shell.

The form's texts are read here as the command line reads its options: labels as
``--label k=v`` (several, separated by spaces; quotes as in a shell), the timeout as
``--timeout SECONDS``, the command as the words after ``gz-ia exec --``. A bad value is
the command line's error, in its words.
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import GzError, InvalidInputError
from gzia.i18n import N_

if TYPE_CHECKING:
    from gzia.drivers.base import Driver
    from gzia.drivers.status import DriverStatus
    from gzia.sessions.project import Project
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.run import LaunchCallback, SessionRun
    from gzia.sessions.workspace import Workspace


@dataclass(frozen=True)
class Choice:
    """What the form asks: the agent, its permission, profiles, the task (a prompt, or a
    command for an agent that runs commands), labels, a timeout, a name, where it runs."""

    provider: str
    permission: str
    profiles: tuple[str, ...] = ()
    prompt: str = ""
    background: bool = False
    command: tuple[str, ...] = ()
    """Empty: the agent itself (the shell: ``$SHELL``)."""
    labels: dict[str, str] = field(default_factory=dict)
    timeout_s: float | None = None
    name: str | None = None
    """``--name`` (checked by :func:`parse_name`)."""
    base: str | None = None
    """``--base``: what the session branches from (checked when it starts)."""
    sandbox: bool | None = None
    """``--sandbox`` (None: the ``sandbox`` setting, as without it); a ``sandbox = true`` of
    the administrator's policy beats a no
    (:func:`gzia.sessions.sandbox_choice.sandbox_for`)."""


def parse_command(text: str) -> tuple[str, ...]:
    """The words of ``text`` as a shell splits them (no shell runs them)."""
    try:
        return tuple(shlex.split(text))
    except ValueError as exc:  # an unclosed quote
        raise InvalidInputError(N_("invalid command '{command}': {reason}"), command=text,
                                reason=str(exc), details={"command": text}) from None


def parse_labels(text: str) -> dict[str, str]:
    """``k=v k2="v 2"``: each as ``--label`` reads it."""
    from gzia.sessions.labels import parse_labels as parsed

    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InvalidInputError(N_("invalid label '{label}': {reason}"), label=text,
                                reason=str(exc), details={"option": "--label"}) from None
    return parsed(words)


def parse_name(text: str) -> str | None:
    """A name, as ``--name`` reads it; blank: none."""
    from gzia.sessions.naming import checked_name

    return checked_name(text) if text.strip() else None


def parse_timeout(text: str) -> float | None:
    """Seconds, as ``--timeout`` reads them (more than 0, finite); blank: none."""
    if not text.strip():
        return None
    try:
        seconds = float(text.strip())
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:  # shown as --timeout shows it: a number
        value = text.strip() if math.isnan(seconds) else str(seconds)  # as Python prints it
        raise InvalidInputError(N_("invalid {option} {value}: expected more than 0 seconds"),
                                option="--timeout", value=value,
                                details={"option": "--timeout", "value": value})
    return seconds


@dataclass(frozen=True)
class Agent:
    status: DriverStatus
    """Where the agent is, its version, or how to install it (``gz-ia drivers``)."""
    takes_prompt: bool
    runs_commands: bool = False


@dataclass(frozen=True)
class Agents:
    all: list[Agent]
    preselected: str | None
    """The agent ``gz-ia chat`` runs without ``-p``, when it is installed."""


def find_agents() -> Agents:
    """Every driver as ``gz-ia drivers`` reports it (versions probed in parallel)."""
    from gzia.drivers import load_catalog
    from gzia.drivers.base import runs_commands, takes_prompt
    from gzia.drivers.status import describe_all

    drivers = load_catalog().drivers
    statuses = describe_all(drivers, os.environ)
    agents = [Agent(status, takes_prompt(drivers[status.id]), runs_commands(drivers[status.id]))
              for status in statuses]
    installed = {status.id for status in statuses if status.available}
    preselected = _chat_default(drivers)
    return Agents(agents, preselected if preselected in installed else None)


def _chat_default(drivers: Mapping[str, Driver]) -> str | None:
    from gzia.config import load_config
    from gzia.drivers.registry import default_provider

    configured = load_config().value("default_provider").value
    try:
        return default_provider(configured or None, drivers=drivers)
    except GzError:  # a bad setting, or no agent on PATH: the operator picks one
        return None


def default_permission() -> str:
    from gzia.config import load_config

    return str(load_config().get("default_permission"))


def profile_names(project: Project) -> list[str]:
    """The profiles a session of ``project`` may use (``gz-ia profile list``), by name."""
    from gzia.profiles.catalog import load_catalog, locations

    return sorted(load_catalog(locations(project.root, project.base)).profiles)


def start(project_dir: Path, choice: Choice, on_launch: LaunchCallback | None = None, *,
          preapproved_tools: tuple[str, ...]) -> SessionRun:
    """Start the session as ``gz-ia chat [-b] -p P -m M --profile ... --label ... --timeout S
    --name N --base B -i PROMPT`` does, or, with a command, as ``gz-ia exec [-b] ... -- CMD
    ARGS`` does; ``preapproved_tools``: the tools chat pre-approves (the TUI's context).

    In the foreground this returns when the agent has ended (the caller has handed it the
    terminal); in the background, once the holder reports the agent running.
    """
    from gzia.drivers.base import runs_commands
    from gzia.drivers.base import takes_prompt as driver_takes_prompt
    from gzia.drivers.registry import get_driver, parse_permission
    from gzia.sessions.mcp_command import server_command
    from gzia.sessions.run import SessionRequest, start_session
    from gzia.sessions.run_settings import (
        background_options,
        configured_watchdog,
        push_allowed,
    )
    from gzia.sessions.sandbox_choice import sandbox_for

    driver = get_driver(choice.provider)
    sandbox = sandbox_for(choice.sandbox)
    prompt = choice.prompt.strip() if driver_takes_prompt(driver) else ""
    command = choice.command if runs_commands(driver) else ()
    request = SessionRequest(project_dir, driver, parse_permission(choice.permission),
                             prompt=prompt or None, command=command or None,
                             mode="exec" if command else "chat",
                             allow_push=push_allowed(False), mcp_server=server_command(),
                             pty=choice.background or sandbox,
                             background=background_options(choice.background),
                             labels=choice.labels or None, profiles=choice.profiles,
                             name=choice.name, base=choice.base, sandbox=sandbox,
                             preapproved_tools=preapproved_tools)
    return start_session(request, watchdog=configured_watchdog(choice.timeout_s),
                         on_launch=on_launch)


def launch_report(choice: Choice, kept: list[str] | None = None) -> LaunchCallback:
    """What ``gz-ia chat`` (``gz-ia exec`` for a command) says as the agent starts, in its
    words: on the terminal the
    TUI has handed over, or (``kept``) the warnings kept for the screen instead: printed,
    they would land on top of the UI."""
    from gzia.drivers.registry import get_driver, parse_permission
    from gzia.tui.services import say
    from gzia.views.launch import chat_launch_line, exec_launch_line, launch_warnings
    from gzia.views.problems import warning_line

    driver, permission = get_driver(choice.provider), parse_permission(choice.permission)

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        problems = launch_warnings(workspace)
        if kept is not None:
            kept.extend(problem.message for problem in problems)
            return
        for problem in problems:
            say(warning_line(problem))
        if choice.background:  # the record shown on return says what runs where
            return
        say(exec_launch_line(choice.command, record.id, workspace) if choice.command
            else chat_launch_line(driver, permission, workspace))

    return launched


def start_in_background(project_dir: Path, choice: Choice,
                        preapproved_tools: tuple[str, ...]) -> tuple[str, list[str]]:
    """``gz-ia chat -b``: the new session's id, and the warnings chat would print."""
    warnings: list[str] = []
    run = start(project_dir, choice, on_launch=launch_report(choice, warnings),
                preapproved_tools=preapproved_tools)
    return run.record.id, warnings
