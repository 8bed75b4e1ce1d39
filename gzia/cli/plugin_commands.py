"""A plugin's command as a gz-ia command: typer apps through typer's own
:func:`typer.main.get_command`, click commands of any class as they are.

The result is a :class:`~gzia.cli.command.GzCommand` (or group) built around the plugin's
command, not the plugin's object changed: its parameters, callback and texts are taken
over, its ``invoke`` still runs, its subcommands are adapted when named. Its page is
drawn by gz-ia's class, with click's plain formatter: typer's rich help would print boxes
straight to stdout, even in JSON mode.
"""

from __future__ import annotations

from typing import Any

import click

from gzia.cli.command import GzCommand, GzGroup
from gzia.contract import InternalError
from gzia.i18n import N_


def plugin_command(loaded: Any, name: str) -> GzCommand:
    """What an entry point of ``gzia.commands`` yields, as the command ``name``."""
    return adapted(to_click(loaded, name), name)


def to_click(loaded: Any, name: str) -> click.Command:
    """A plugin exposes a typer.Typer app or a click command."""
    if isinstance(loaded, click.Command):
        return loaded
    import typer  # only for a plugin's typer app: no built-in command uses it

    if isinstance(loaded, typer.Typer):
        return typer.main.get_command(loaded)
    raise InternalError(N_("plugin '{name}' is not a command group (it is a {kind})"), name=name,
                        kind=type(loaded).__name__)


def adapted(command: click.Command, name: str) -> GzCommand:
    if isinstance(command, GzCommand):
        return command
    if isinstance(command, click.Group):
        return PluginGroup(command, name)
    return PluginCommand(command, name)


TYPERS_COMPLETION = {("typer.completion", "install_callback"),
                     ("typer.completion", "show_callback")}
"""typer's ``--install-completion`` and ``--show-completion``: they write typer's scripts,
which speak another protocol than gz-ia's (``gz-ia completion SHELL``), so a plugin's
command does not offer them."""


def _own_param(param: click.Parameter) -> bool:
    callback = param.callback
    where = (getattr(callback, "__module__", None), getattr(callback, "__qualname__", None))
    return where not in TYPERS_COMPLETION


def _taken_over(command: click.Command) -> dict[str, Any]:
    return {"params": [p for p in command.params if _own_param(p)], "callback": command.callback,
            "help": command.help, "epilog": command.epilog, "short_help": command.short_help,
            "options_metavar": command.options_metavar, "hidden": command.hidden,
            "add_help_option": command.add_help_option, "deprecated": command.deprecated,
            "no_args_is_help": command.no_args_is_help,
            "context_settings": dict(command.context_settings)}


class PluginCommand(GzCommand):
    """A plugin's command: its parameters and texts, its own ``invoke``."""

    def __init__(self, inner: click.Command, name: str) -> None:
        super().__init__(name, **_taken_over(inner))
        self.inner = inner

    def invoke(self, ctx: click.Context) -> Any:
        return self.inner.invoke(ctx)


class PluginGroup(GzGroup):
    """A plugin's command group: its subcommands, as it lists and finds them, adapted."""

    def __init__(self, inner: click.Group, name: str) -> None:
        super().__init__(name, invoke_without_command=inner.invoke_without_command,
                         chain=inner.chain, subcommand_metavar=inner.subcommand_metavar,
                         result_callback=inner._result_callback,
                         **_taken_over(inner))
        self.inner = inner

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self.inner.list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            found = self.inner.get_command(ctx, cmd_name)
            if found is None:
                return None
            self.add_command(adapted(found, cmd_name), cmd_name)
        return self.commands[cmd_name]
