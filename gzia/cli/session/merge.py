"""``gz-ia session merge <id>`` (alias ``get``): the session's branch into the current one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from gzia.cli import output
from gzia.cli.command import command
from gzia.cli.session.common import dir_option, open_session, session_ref
from gzia.i18n import N_


def merge_options(function: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed((
        session_ref,
        click.option("--squash", is_flag=True, help="Squash the session into one change."),
        click.option("--no-commit", is_flag=True, help="Stage the merge, do not commit."),
        dir_option,
    )):
        function = option(function)
    return function


def _merge(session: str, *, squash: bool, no_commit: bool, directory: str | None,
           done_key: str) -> None:
    from gzia.sessions.merge import merge_session
    from gzia.views.sessions import render_merge

    store, record = open_session(session, directory)
    result = merge_session(store, record, squash=squash, no_commit=no_commit)
    output.emit(result.to_json(), lambda: output.lines(render_merge(result, done_key)))


@command("merge", help="Merge the session's branch into the current branch (alias: get).")
@merge_options
def merge_command(session: str, squash: bool, no_commit: bool, directory: str | None) -> None:
    _merge(session, squash=squash, no_commit=no_commit, directory=directory,
           done_key=N_("✓ Merge completed successfully for session '{id}'."))


@command("get", hidden=True, help="Alias of merge.")
@merge_options
def get_command(session: str, squash: bool, no_commit: bool, directory: str | None) -> None:
    _merge(session, squash=squash, no_commit=no_commit, directory=directory,
           done_key=N_("✓ Worktree changes brought in and merged successfully for session '{id}'."))
