"""The options chat, exec and resume share, each declared once: add a run option here,
then use it where it applies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.numbers import Seconds
from gzia.i18n import gettext

if TYPE_CHECKING:
    from gzia.sessions.run import SessionRun

ProjectDir = Annotated[str | None, typer.Option("-d", "--dir", help="Project directory.")]
AllowPush = Annotated[bool, typer.Option(
    "--allow-push", help="Let the agent run git push (refused in sessions otherwise).")]
NoMcp = Annotated[bool, typer.Option(
    "--no-mcp", help="Do not hand the session's MCP server (gz-ia mcp) to the agent.")]
Profiles = Annotated[list[str] | None, typer.Option(
    "--profile", metavar="NAME",
    help="Project this profile into the session's worktree (repeatable).")]
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

Direct = Annotated[bool, typer.Option(
    "--direct",
    help="Outside a git work tree, run in the directory itself, not isolated (refused "
         "otherwise).")]
AgentExitCode = Annotated[bool, typer.Option(
    "--exit-code",
    help="Exit with the agent's own exit code (128+N if signal N ended it) instead of 1.")]


def report_outcome(run: SessionRun, *, background: bool, agent_exit_code: bool = False) -> None:
    """A ``-b`` run as started (:func:`report_started`), any other as it ended."""
    if background:
        report_started(run)
        return
    from gzia.cli.run_report import report_run

    report_run(run, agent_exit_code=agent_exit_code)


def report_started(run: SessionRun) -> None:
    """A ``-b`` run: the record (``status: running``) and, for people, what to do next."""
    if run.reused is not None:  # the idempotency key's session: reported as it is
        from gzia.cli.run_report import report_run

        report_run(run)
        return
    record = run.record

    def human() -> None:
        output.line(gettext("● Session '{id}' is running in the background (PID {pid}).",
                            id=record.id, pid=record.pid))
        output.line(gettext("  Output: gz-ia session output {id} -f   Attach: gz-ia session attach "
                            "{id}   Stop: gz-ia session kill {id}",
                            id=record.id))

    output.emit(record.to_json(), human)
