"""``gz-ia help [COMMAND]...``: the same page as ``gz-ia COMMAND... --help``."""

from __future__ import annotations

import click

from gzia.cli.command import argument, command, raise_unknown_command, show_help


@command("help", help="Show the help of gz-ia or of a command (gz-ia help session list).")
@argument("names", metavar="COMMAND", nargs=-1,
          help="The command and its subcommands, as typed before --help.")
@click.pass_context
def app(ctx: click.Context, names: tuple[str, ...]) -> None:
    show_help(context_of(ctx.find_root(), list(names)))


def context_of(ctx: click.Context, names: list[str]) -> click.Context:
    """The context ``names`` lead to from ``ctx``, as click would make it to parse them."""
    for position, name in enumerate(names):
        group = ctx.command
        sub = group.get_command(ctx, name) if isinstance(group, click.Group) else None
        if sub is None:
            known = group.list_commands(ctx) if isinstance(group, click.Group) else []
            raise_unknown_command(name, known, names[position + 1:])
        ctx = click.Context(sub, parent=ctx, info_name=name, **sub.context_settings)
    return ctx
