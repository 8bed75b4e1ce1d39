"""``gz-ia session merge <id>`` (alias ``get``): the session's branch into the current one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from gzia.cli import output
from gzia.cli.command import command
from gzia.cli.session.common import dir_option, open_session, session_ref
from gzia.cli.session.resolve import RESOLVE_OPTIONS, hand_off
from gzia.i18n import N_


def merge_options(function: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed((
        session_ref,
        click.option("--squash", is_flag=True, help="Squash the session into one change."),
        click.option("--no-commit", is_flag=True, help="Stage the merge, do not commit."),
        click.option("-m", "--message", metavar="MSG",
                     help="The merge commit's message (default: names the session's prompt or "
                          "command)."),
        *RESOLVE_OPTIONS,
        dir_option,
    )):
        function = option(function)
    return function


def _merge(session: str, *, squash: bool, no_commit: bool, directory: str | None,
           done_key: str, message: str | None, resolve: Resolve) -> None:
    from gzia.contract import ConflictError
    from gzia.sessions.conflict_resolution import merge_base
    from gzia.sessions.merge import merge_session
    from gzia.views.merging import identity_warning, render_merge

    store, record = open_session(session, directory)
    try:
        result = merge_session(store, record, squash=squash, no_commit=no_commit,
                               message=message)
    except ConflictError as conflict:
        if not resolve.with_agent or "files" not in conflict.details:
            raise
        head, name = merge_base(store)
        hand_off(store, record, conflict, base_commit=head, base_name=name,
                 provider=resolve.provider)
        return
    if (warning := identity_warning(result)) is not None:
        output.add_warning(warning)
    output.emit(result.to_json(), lambda: output.lines(render_merge(result, done_key)))


@dataclass(frozen=True)
class Resolve:
    """``--resolve-with-agent`` and ``-p``."""

    with_agent: bool
    provider: str | None


@command("merge", help="Merge the session's branch into the current branch (alias: get).")
@merge_options
def merge_command(session: str, *, squash: bool, no_commit: bool, message: str | None,
                  resolve_with_agent: bool, provider: str | None, directory: str | None) -> None:
    _merge(session, squash=squash, no_commit=no_commit, directory=directory, message=message,
           done_key=N_("✓ Merge completed successfully for session '{id}'."),
           resolve=Resolve(resolve_with_agent, provider))


@command("get", hidden=True, help="Alias of merge.")
@merge_options
def get_command(session: str, *, squash: bool, no_commit: bool, message: str | None,
                resolve_with_agent: bool, provider: str | None, directory: str | None) -> None:
    _merge(session, squash=squash, no_commit=no_commit, directory=directory, message=message,
           done_key=N_("✓ Worktree changes brought in and merged successfully for session '{id}'."),
           resolve=Resolve(resolve_with_agent, provider))
