"""The options of a run, each declared once and added to the commands it applies to
(chat, exec, resume, session resume): :func:`run_options` adds those named and hands the
command one :class:`~gzia.sessions.run_options.RunOptions`. Add a run option here (and its
field there), then name it where it applies."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gzia.cli import completers
from gzia.cli.numbers import Seconds
from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.sessions.run_options import RunOptions

if TYPE_CHECKING:
    from gzia.contract import Permission
    from gzia.drivers.base import Driver
    from gzia.sessions.run import SessionRequest
    from gzia.supervisor.watchdog import Watchdog

F = TypeVar("F", bound=Callable[..., Any])

project_dir = click.option("-d", "--dir", "directory", help="Project directory.")

OPTIONS: dict[str, Callable[[F], F]] = {
    "name": click.option(
        "-n", "--name", metavar="TEXT",
        help="Name the session: shown in lists and the terminal UI (not an id: names may "
             "repeat)."),
    "allow_push": click.option(
        "--allow-push", is_flag=True,
        help="Let the agent run git push (refused in sessions otherwise)."),
    "no_mcp": click.option(
        "--no-mcp", is_flag=True,
        help="Do not hand the session's MCP server (gz-ia mcp) to the agent."),
    "labels": click.option(
        "--label", "labels", multiple=True, show_default=False,
        help="Label the session: k=v (repeatable; kept on resume)."),
    "idempotency_key": click.option(
        "--idempotency-key", metavar="KEY",
        help="Start at most one session for KEY: a repeat returns it."),
    "background": click.option(
        "-b", "--background", is_flag=True,
        help="Run under a detached holder and return at once with the session record."),
    "timeout": click.option(
        "--timeout", type=Seconds(positive=True), metavar="SECONDS",
        help="Stop the agent (tree kill) after this many seconds; end_reason timeout."),
    "no_output_timeout": click.option(
        "--no-output-timeout", type=Seconds(positive=True), metavar="SECONDS",
        help="Stop the agent after this many seconds without output (PTY runs); "
             "end_reason no_output_timeout."),
    "profiles": click.option(
        "--profile", "profiles", multiple=True, metavar="NAME",
        help="Project this profile into the session's worktree (repeatable).",
        shell_complete=completers.profiles),
    "direct": click.option(
        "--direct", is_flag=True,
        help="Outside a git work tree, run in the directory itself, not isolated (refused "
             "otherwise)."),
    "exit_code": click.option(
        "--exit-code", is_flag=True,
        help="Exit with the agent's own exit code (128+N if signal N ended it) instead of 1."),
    "sandbox": click.option(
        "--sandbox", is_flag=True,
        help="Run the agent in a sandbox (bubblewrap): it writes only its worktree, reads no "
             "secrets and reaches only allowed hosts (kept on resume)."),
    "no_notify": click.option(
        "--no-notify", is_flag=True,
        help="Send no notification for this session (kept on resume)."),
    "base": click.option(
        "--base", metavar="BRANCH|REF",
        help="Branch the session from this branch, tag or commit (default: HEAD).",
        shell_complete=completers.branches),
    "fetch": click.option(
        "--fetch", is_flag=True,
        help="Fetch the base branch from its remote first and branch from the fetched one."),
    "skip_setup": click.option(
        "--skip-setup", is_flag=True,
        help="Do not run the worktree setup (worktree_setup, .gz-ia/setup) in a worktree "
             "created for this run."),
}


def run_options(*names: str) -> Callable[[F], F]:
    """Add the run options ``names`` (in this order) to a command, whose function then
    takes them as one ``run: RunOptions`` keyword."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def with_run_options(*args: Any, **kwargs: Any) -> Any:
            given = {name: kwargs.pop(name) for name in names}
            return function(*args, run=options_from(given), **kwargs)

        decorated: Any = with_run_options
        for name in reversed(names):
            decorated = OPTIONS[name](decorated)
        return decorated  # type: ignore[no-any-return]

    return decorate


def options_from(given: dict[str, Any]) -> RunOptions:
    """The options as given, labels and key validated before anything starts."""
    from gzia.cli import output

    if given.get("exit_code") and given.get("background"):
        raise InvalidInputError(
            N_("--exit-code has no code to exit with in a -b run, which returns as the agent "
               "starts"), hint_key=N_("wait for it with gz-ia session wait --exit-code <id>"),
            details={"option": "--exit-code"})
    labels = given.pop("labels", ())
    key = given.pop("idempotency_key", None)
    name = given.pop("name", None)
    return RunOptions(
        background=given.pop("background", False), timeout_s=given.pop("timeout", None),
        no_output_timeout_s=given.pop("no_output_timeout", None),
        profiles=tuple(given.pop("profiles", ())), no_mcp=given.pop("no_mcp", False),
        allow_push=given.pop("allow_push", False), labels=_parsed_labels(labels),
        direct=given.pop("direct", False), exit_code=given.pop("exit_code", False),
        idempotency_key=None if key is None else _valid_key(key),
        output_to_stderr=output.is_json(), notify=not given.pop("no_notify", False),
        sandbox=given.pop("sandbox", False),
        base=given.pop("base", None), fetch=given.pop("fetch", False),
        skip_setup=given.pop("skip_setup", False),
        name=None if name is None else _valid_name(name))


def _valid_name(name: str) -> str:
    from gzia.sessions.naming import checked_name

    return checked_name(name)


def _valid_key(key: str) -> str:
    from gzia.sessions.idempotency import validate_key

    return validate_key(key)


def _parsed_labels(texts: tuple[str, ...]) -> dict[str, str] | None:
    from gzia.sessions.labels import parse_labels

    return parse_labels(texts) or None


def session_request(directory: str | None, driver: Driver, permission: Permission,
                    run: RunOptions, *, mcp: bool, **fields: Any) -> SessionRequest:
    """A new session's request: ``run`` with what the settings add (the push setting, the
    MCP server command and gz-ia's pre-approved tools when ``mcp``, a ``-b`` run's log size
    and window)."""
    from gzia.sessions.mcp_command import server_command
    from gzia.sessions.run import SessionRequest
    from gzia.sessions.run_settings import background_options, push_allowed, sandbox_wanted

    sandbox = sandbox_wanted(run.sandbox)
    if sandbox:  # its own terminal: never the person's (docs/sandbox.md)
        fields["pty"] = True
    return SessionRequest(
        directory, driver, permission, output_to_stderr=run.output_to_stderr,
        allow_push=push_allowed(run.allow_push), labels=run.labels,
        idempotency_key=run.idempotency_key,
        mcp_server=server_command(run.no_mcp) if mcp else None,
        background=background_options(run.background), profiles=run.profiles, name=run.name,
        direct=run.direct, notify=run.notify, sandbox=sandbox, base=run.base, fetch=run.fetch,
        skip_setup=run.skip_setup,
        preapproved_tools=with_preapproved(run).preapproved_tools if mcp else (), **fields)


def with_preapproved(run: RunOptions) -> RunOptions:
    """``run`` with gz-ia's read-only tools, which a supervised agent calls without asking
    (none with ``--no-mcp``)."""
    if run.no_mcp:
        return run
    from gzia.orchy.preapproved import read_only_tools

    return replace(run, preapproved_tools=read_only_tools())


def watchdog_of(run: RunOptions) -> Watchdog:
    from gzia.sessions.run_settings import configured_watchdog

    return configured_watchdog(run.timeout_s, run.no_output_timeout_s)
