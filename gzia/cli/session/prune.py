"""``gz-ia session prune``: worktrees and ``harness/*`` branches that have no record."""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.command import command
from gzia.cli.session.common import dir_option, open_store


@command("prune", help="Remove worktrees and harness/* branches that have no record.")
@click.option("--dry-run", is_flag=True, help="Report, remove nothing.")
@click.option("--force", "-f", is_flag=True,
              help="Also remove orphaned worktrees holding uncommitted work.")
@click.option("--finished", is_flag=True,
              help="Also remove finished sessions that are merged or changed nothing.")
@dir_option
def prune_command(dry_run: bool, force: bool, finished: bool, directory: str | None) -> None:
    from gzia.sessions.prune import prune
    from gzia.views.sessions import render_prune

    store = open_store(directory)
    done = None
    if finished:
        from gzia.sessions.prune import prune_finished

        done = prune_finished(store, dry_run=dry_run, force=force)
    report = prune(store, dry_run=dry_run, force=force)
    data = {**report.to_json(), **(done.to_json() if done else {})}
    output.emit(data, lambda: output.lines(render_prune(report, done)))
