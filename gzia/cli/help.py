"""``gz-ia help [COMMAND]...``: the same page as ``gz-ia COMMAND... --help``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli.command import argument, command, raise_unknown_command, show_help

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def command_names(ctx: click.Context, param: click.Parameter,
                  incomplete: str) -> list[CompletionItem]:
    """What ``gz-ia help NAMES... <TAB>`` offers: the visible subcommands of the command
    NAMES lead to, with their summaries (nothing after a word that is no group's)."""
    from click.shell_completion import CompletionItem

    reached = ctx.find_root()
    for name in ctx.params.get("names") or ():
        group = reached.command
        sub = group.get_command(reached, name) if isinstance(group, click.Group) else None
        if sub is None:
            return []
        reached = click.Context(sub, parent=reached, info_name=name)
    group = reached.command
    if not isinstance(group, click.Group):
        return []
    found = ((name, group.get_command(reached, name)) for name in group.list_commands(reached)
             if name.startswith(incomplete))
    return [CompletionItem(name, help=sub.get_short_help_str())
            for name, sub in found if sub is not None and not sub.hidden]


@command("help", help="Show the help of gz-ia or of a command (gz-ia help session list).")
@argument("names", metavar="COMMAND", nargs=-1, shell_complete=command_names,
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
