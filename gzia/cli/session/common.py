"""What every ``session`` subcommand shares: ``-d/--dir``, the id argument, the store.

``-d`` is accepted by the group and by each subcommand (``gz-ia session -d DIR list``);
the subcommand's own wins, decided in one place (:func:`_directory`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from gzia.cli.command import GzCommand, argument, command
from gzia.sessions.ids import validate_session_ref
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore

GROUP_DIR_KEY = "gzia.session.dir"


def _directory(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The group's ``-d`` is kept for its subcommands; a subcommand's ``-d`` is its own,
    else the group's, else ``None`` (the current directory)."""
    if isinstance(ctx.command, click.Group):
        ctx.meta[GROUP_DIR_KEY] = value
        return value
    return value or ctx.meta.get(GROUP_DIR_KEY)


def dir_option(function: Any) -> Any:
    """``-d/--dir``, for the ``session`` group and each of its subcommands."""
    return click.option("-d", "--dir", "directory", callback=_directory,
                        help="Project directory (default: the current directory).")(function)


session_ref = argument("session", metavar="ID", help="Session id (or unique prefix).")


def session_command(name: str, *, help: str, takes_id: bool = True,
                    options: Sequence[Callable[[Any], Any]] = (),
                    **attrs: Any) -> Callable[[Callable[..., Any]], GzCommand]:
    """A ``session`` subcommand: the session's ``ID`` first (when ``takes_id``), then
    ``options`` in order, then ``-d/--dir``."""

    def decorate(function: Callable[..., Any]) -> GzCommand:
        for option in reversed([*([session_ref] if takes_id else []), *options, dir_option]):
            function = option(function)
        return command(name, help=help, **attrs)(function)

    return decorate


def open_store(directory: str | None) -> SessionStore:
    """The store of the project containing ``directory`` (default: the current one)."""
    return SessionStore(find_project(directory))


def open_session(ref: str, directory: str | None) -> tuple[SessionStore, SessionRecord]:
    """Validate ``ref`` first (touching nothing), then load and reconcile the record."""
    validate_session_ref(ref)
    store = open_store(directory)
    return store, get_session(store, ref)
