"""typer 0.24 with click 8.5: arguments keep their help text and are listed once.

click 8.5 gave ``click.Argument`` a ``help`` parameter of its own, and commands a
"Positional arguments" section for it. typer's ``TyperArgument`` sets ``self.help`` and
then calls click's ``__init__`` without it, which resets it to ``None`` (no argument's
help would ever be shown); and typer's commands already list their arguments, under
"Arguments". Until typer catches up, :func:`adapt_typer` puts the help back once
click's ``__init__`` is done and, where typer does not format arguments itself, leaves
the listing to typer's options section.
"""

from __future__ import annotations

import functools
from typing import Any

import click


def adapt_typer() -> None:
    from typer.core import TyperArgument, TyperCommand, TyperGroup

    original = TyperArgument.__init__
    if getattr(original, "keeps_help", False):
        return

    @functools.wraps(original)
    def init(self: TyperArgument, *args: Any, help: str | None = None, **kwargs: Any) -> None:
        original(self, *args, help=help, **kwargs)
        if self.help is None:
            self.help = help

    init.keeps_help = True  # type: ignore[attr-defined]
    TyperArgument.__init__ = init  # type: ignore[method-assign]
    for command_class in (TyperCommand, TyperGroup):
        inherited = "format_arguments" not in vars(command_class)
        if inherited and hasattr(click.Command, "format_arguments"):
            command_class.format_arguments = _listed_by_typer  # type: ignore[method-assign]


def _listed_by_typer(self: click.Command, ctx: click.Context,
                     formatter: click.HelpFormatter) -> None:
    """typer's own format_options lists the arguments."""
