"""What every ``session`` subcommand shares: ``-d/--dir``, the id argument, the store.

Other modules adding subcommands to the ``session`` group (resume, kill) use these too.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gzia.sessions.ids import validate_session_ref
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore

Dir = Annotated[
    str | None,
    typer.Option("-d", "--dir", help="Project directory (default: the current directory)."),
]
SessionRef = Annotated[str, typer.Argument(metavar="ID", help="Session id (or unique prefix).")]


def session_group(ctx: typer.Context, directory: Dir = None) -> None:
    """The group's own ``-d/--dir``, for ``gz-ia session -d DIR <subcommand>``; a
    subcommand's own ``-d`` wins over it (:func:`open_store`, the one place)."""
    ctx.obj = {"dir": directory}


def open_store(ctx: typer.Context, directory: str | None) -> SessionStore:
    """The store of the project containing ``-d`` (see :func:`project_dir`)."""
    return SessionStore(find_project(project_dir(ctx, directory)))


def project_dir(ctx: typer.Context, directory: str | None) -> str | None:
    """The subcommand's ``-d``, else the group's (``gz-ia session -d DIR ...``), else
    ``None`` (the current directory): the subcommand's wins."""
    return directory or group_dir(ctx)


def group_dir(ctx: typer.Context) -> str | None:
    """The ``-d`` given to the group itself (``gz-ia session -d DIR ...``), if any."""
    return ctx.obj.get("dir") if isinstance(ctx.obj, dict) else None


def open_session(
    ctx: typer.Context, ref: str, directory: str | None
) -> tuple[SessionStore, SessionRecord]:
    """Validate ``ref`` first (touching nothing), then load and reconcile the record."""
    validate_session_ref(ref)
    store = open_store(ctx, directory)
    return store, get_session(store, ref)


