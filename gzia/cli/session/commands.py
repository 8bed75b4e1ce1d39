"""``gz-ia session ...``: list, show, path, delete, diff, merge, prune, log, logs.

Every subcommand takes ``-d/--dir`` (also accepted before the subcommand:
``gz-ia session -d DIR list``) and finds the project from any directory inside it,
including a session worktree. Ids are validated before anything else happens.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gzia.cli import output
from gzia.cli.numbers import Count
from gzia.cli.session.common import (
    Dir,
    SessionRef,
    open_session,
    open_store,
    project_dir,
    session_group,
)
from gzia.cli.session.events import log_command, logs_command
from gzia.cli.session.wait import wait_command
from gzia.i18n import N_, gettext

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Manage local agent sessions (list, show, path, delete, diff, merge, prune, log, "
         "logs, wait, kill, resume, poll, output, send-keys, paste, submit, attach, metrics).",
)
app.callback()(session_group)

StatusFilter = Annotated[list[str] | None, typer.Option(
    "--status", help="Only sessions in this status (repeatable).", show_default=False)]
ProviderFilter = Annotated[list[str] | None, typer.Option(
    "--provider", help="Only sessions of this provider (repeatable).", show_default=False)]
LabelFilter = Annotated[list[str] | None, typer.Option(
    "--label", help="Only sessions with label k=v (repeatable: all must match).",
    show_default=False)]
Since = Annotated[str | None, typer.Option(
    "--since", help="Only sessions started since a time (RFC 3339) or a duration ago (2h, 7d).")]
Limit = Annotated[int | None, typer.Option(
    "--limit", click_type=Count(1), metavar="N", help="Show at most N sessions, newest first.")]


@app.command("list", help="List the project's sessions, newest first.")
def list_command(  # noqa: PLR0917 - typer maps one parameter to each flag
    ctx: typer.Context, directory: Dir = None, status: StatusFilter = None,
    provider: ProviderFilter = None, label: LabelFilter = None, since: Since = None,
    limit: Limit = None,
) -> None:
    from gzia.cli.session.listing import show_sessions
    from gzia.sessions.list_filter import build_filter

    wanted = build_filter(statuses=status or (), providers=provider or (), labels=label or (),
                          since=since, limit=limit)
    show_sessions(project_dir(ctx, directory), None if wanted.is_empty else wanted)


@app.command("show", help="Show one session's record.")
def show_command(ctx: typer.Context, session: SessionRef, directory: Dir = None) -> None:
    from gzia.views.sessions import render_show

    _, record = open_session(ctx, session, directory)
    output.emit(record.to_json(), lambda: output.lines(render_show(record)))


@app.command("path", help="Print the directory the session works in.")
def path_command(ctx: typer.Context, session: SessionRef, directory: Dir = None) -> None:
    from gzia.sessions.workspace import workspace_of

    store, record = open_session(ctx, session, directory)
    path = str(workspace_of(store.project, record).target_dir)
    output.emit({"id": record.id, "path": path, "is_isolated": record.is_isolated},
                lambda: output.line(path))


Force = Annotated[bool, typer.Option("--force", "-f", help="Delete even unmerged or running work.")]


def delete_command(
    ctx: typer.Context, session: SessionRef, force: Force = False, directory: Dir = None
) -> None:
    from gzia.cli.session.control import warn_if_process_only
    from gzia.sessions.delete import delete_session

    store, record = open_session(ctx, session, directory)
    result = delete_session(store, record, force=force)
    warn_if_process_only(record.id, result.kill_target)
    output.emit(result.to_json(),
                lambda: output.line(gettext("✓ Session '{id}' deleted from the registry.",
                                            id=record.id)))


app.command("delete", help="Delete a session and its worktree and branch (alias: rm).")(
    delete_command)
app.command("rm", hidden=True, help="Alias of delete.")(delete_command)

Stat = Annotated[bool, typer.Option("--stat", help="Show only a summary of the changes.")]


def diff_command(
    ctx: typer.Context, session: SessionRef, stat: Stat = False, directory: Dir = None
) -> None:
    from gzia.sessions.diff import session_diff

    store, record = open_session(ctx, session, directory)
    result = session_diff(store.project, record, stat=stat)

    def human() -> None:
        if not result.is_isolated:
            output.line(gettext("The session ran in direct mode and has no isolated diff."))
        elif not result.text:
            output.line(gettext("✧ No changes recorded in the session."))
        else:
            output.line(result.text.rstrip("\n"))

    output.emit(result.to_json(), human)


app.command("diff", help="Show what the session changed (alias: read).")(diff_command)
app.command("read", hidden=True, help="Alias of diff.")(diff_command)

Squash = Annotated[bool, typer.Option("--squash", help="Squash the session into one change.")]
NoCommit = Annotated[bool, typer.Option("--no-commit", help="Stage the merge, do not commit.")]


MergeMessage = Annotated[str | None, typer.Option(
    "-m", "--message", metavar="MSG",
    help="The merge commit's message (default: names the session's prompt or command).")]


def _merge(ctx: typer.Context, session: str, *, squash: bool, no_commit: bool,
           directory: str | None, done_key: str, message: str | None = None) -> None:
    from gzia.sessions.merge import merge_session
    from gzia.views.sessions import identity_warning, render_merge

    store, record = open_session(ctx, session, directory)
    result = merge_session(store, record, squash=squash, no_commit=no_commit, message=message)
    if (warning := identity_warning(result)) is not None:
        output.add_warning(warning)
    output.emit(result.to_json(), lambda: output.lines(render_merge(result, done_key)))


@app.command("merge", help="Merge the session's branch into the current branch (alias: get).")
def merge_command(  # noqa: PLR0917 - typer maps one parameter to each flag
    ctx: typer.Context, session: SessionRef, squash: Squash = False, no_commit: NoCommit = False,
    directory: Dir = None, message: MergeMessage = None,
) -> None:
    _merge(ctx, session, squash=squash, no_commit=no_commit, directory=directory,
           done_key=N_("✓ Merge completed successfully for session '{id}'."), message=message)


@app.command("get", hidden=True, help="Alias of merge.")
def get_command(  # noqa: PLR0917 - typer maps one parameter to each flag
    ctx: typer.Context, session: SessionRef, squash: Squash = False, no_commit: NoCommit = False,
    directory: Dir = None, message: MergeMessage = None,
) -> None:
    _merge(ctx, session, squash=squash, no_commit=no_commit, directory=directory,
           done_key=N_("✓ Worktree changes brought in and merged successfully for session '{id}'."),
           message=message)


DryRun = Annotated[bool, typer.Option("--dry-run", help="Report, remove nothing.")]
PruneForce = Annotated[bool, typer.Option(
    "--force", "-f", help="Also remove orphaned worktrees holding uncommitted work.")]
Finished = Annotated[bool, typer.Option(
    "--finished", help="Also remove finished sessions that are merged or changed nothing.")]


@app.command("prune", help="Remove worktrees and harness/* branches that have no record.")
def prune_command(
    ctx: typer.Context, dry_run: DryRun = False, force: PruneForce = False,
    finished: Finished = False, directory: Dir = None
) -> None:
    from gzia.sessions.prune import prune
    from gzia.views.sessions import render_prune

    store = open_store(ctx, directory)
    done = None
    if finished:
        from gzia.sessions.prune import prune_finished

        done = prune_finished(store, dry_run=dry_run, force=force)
    report = prune(store, dry_run=dry_run, force=force)
    data = {**report.to_json(), **(done.to_json() if done else {})}
    output.emit(data, lambda: output.lines(render_prune(report, done)))


app.command("log", help="Append an event to the session's event log.")(log_command)
app.command("logs", help="Print the session's events (-f: follow while it runs).")(logs_command)
app.command("wait", help="Wait until sessions end; exit 0 only if all completed with exit 0.")(
    wait_command)


def _register_run_control() -> None:
    from gzia.cli.session import control, process

    control.register(app)
    process.register(app)


_register_run_control()


def _register_metrics() -> None:
    from gzia.cli.metrics import register

    register(app)


_register_metrics()
