"""``gz-ia resume <id>``: continue a session's own conversation in its own workspace."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from gzia.cli import output
from gzia.cli import run_options as run
from gzia.cli.run_report import warn_at_launch
from gzia.i18n import gettext
from gzia.sessions.record import SessionRecord
from gzia.sessions.resuming import ResumeRequest
from gzia.sessions.workspace import Workspace

app = typer.Typer(add_completion=False)


@app.command(help="Resume a finished session in its own workspace and conversation.")
def resume(  # noqa: PLR0917 - typer maps each flag to a parameter
    session_id: Annotated[str, typer.Argument(metavar="ID",
                                              help="Session id (or unique prefix).")],
    directory: run.ProjectDir = None,
    background: run.Background = False,
    timeout: run.Timeout = None,
    no_output_timeout: run.NoOutputTimeout = None,
    profiles: run.Profiles = None,
    no_mcp: run.NoMcp = False,
) -> None:
    resume_and_report(ResumeRequest(
        session_id, directory, background=background, timeout_s=timeout,
        no_output_timeout_s=no_output_timeout, profiles=tuple(profiles or ()), no_mcp=no_mcp))


def resume_and_report(request: ResumeRequest) -> None:
    """Resume as ``request`` asks and report it: the launch line, then the record."""
    from gzia.sessions.resuming import resume as resume_run

    def launched(record: SessionRecord, workspace: Workspace) -> None:
        warn_at_launch(workspace, base_changes=False)
        if request.background:  # the record printed on return says what runs where
            return
        output.progress(gettext("↻ Resuming session [{id}] in [{dir}]...", id=record.id,
                                dir=workspace.target_dir))

    session_run = resume_run(replace(request, output_to_stderr=output.is_json()), launched)
    run.report_outcome(session_run, background=request.background)
