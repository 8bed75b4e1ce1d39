"""``gz-ia`` itself: the root group, whose commands load from ``gzia.commands`` entry points
(built-in and third-party alike) when named; ``--help`` imports them all.

Bare ``gz-ia`` on a terminal is ``gz-ia start``; a shell completion script calling back is
answered by this group's parser too. Every other decision is each command's own.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from gzia.cli.command import GzCommand, GzGroup, raise_unknown_command, show_help
from gzia.cli.credential_shedding import shed_for
from gzia.cli.plugin_warnings import discover_commands, report_plugin_failure
from gzia.contract import GzError, InternalError
from gzia.i18n import N_
from gzia.plugins import Discovery, PluginFailure, load_entry_point

PROGRAM = "gz-ia"
if TYPE_CHECKING:
    from click.shell_completion import ShellComplete

COMPLETE_VAR = "_GZ_IA_COMPLETE"
SHELLS = ("bash", "zsh", "fish")


def click_completer(shell: str) -> type[ShellComplete] | None:
    """click's own completion for ``shell``, by class: click's registry of them is shared,
    and typer (which a plugin may load) registers its own there, whose scripts and answers
    speak another protocol."""
    from click.shell_completion import BashComplete, FishComplete, ZshComplete

    class WholeDescriptionsFish(FishComplete):
        """click's fish script splits each answer at every comma, so a description was
        cut at its first one ("Show a session's status, duration, ..."): split once."""

        source_template = FishComplete.source_template.replace(
            'string split "," $completion', 'string split -m 1 "," -- $completion')

    return {"bash": BashComplete, "zsh": ZshComplete, "fish": WholeDescriptionsFish}.get(shell)
"""Set when a shell's completion script calls gz-ia back (gzia/cli/completion.py)."""


class CompletionAnswered(click.exceptions.Exit):
    """A completion script's call was answered: nothing else is written, the exit code is
    :func:`click.shell_completion.shell_complete`'s."""


class RootGroup(GzGroup):
    """``gz-ia`` itself: its commands load from entry points when named; with none named
    (``gz-ia --json``, or bare ``gz-ia`` off a terminal) it shows its help."""

    def __init__(self, *, sheds_credentials: bool = False, **kwargs: Any) -> None:
        super().__init__(invoke_without_command=True, callback=_help_without_command,
                         subcommand_metavar="COMMAND [ARGS]...", **kwargs)  # as people use it
        self.sheds_credentials = sheds_credentials
        """This process is gz-ia's own (not a caller of :func:`gzia.cli.main`): a command
        that does not keep the credentials runs again without them once it is known."""
        self._discovery: Discovery | None = None

    @property
    def discovery(self) -> Discovery:
        if self._discovery is None:
            self._discovery = discover_commands()
        return self._discovery

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            instruction = os.environ.get(COMPLETE_VAR)
            if instruction:
                raise CompletionAnswered(self.complete(instruction))
            if not args and _on_a_terminal():  # bare gz-ia on a terminal is gz-ia start
                args = ["start"]
        return super().parse_args(ctx, args)

    def complete(self, instruction: str) -> int:
        """Answer a completion script's call (``<shell>_source`` or ``<shell>_complete``):
        the words come from the environment."""
        shell, _, action = instruction.partition("_")
        completer = click_completer(shell)
        if completer is None or action not in ("source", "complete"):
            return 1
        try:
            answer = completer(self, {}, PROGRAM, COMPLETE_VAR)
            click.echo(answer.source() if action == "source" else answer.complete())
        except (click.ClickException, GzError):  # words that do not parse: offer nothing
            return 1
        return 0

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.discovery.available)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        entry = self.discovery.available.get(cmd_name)
        if entry is None:
            return None
        info, ep = entry
        loaded = load_entry_point(info, ep)
        if isinstance(loaded, PluginFailure):
            report_plugin_failure(loaded)
            return None
        if isinstance(loaded, GzCommand):  # a built-in command, declared as gz-ia's
            command: click.Command = loaded
        else:
            from gzia.cli.plugin_commands import plugin_command

            command = plugin_command(loaded, cmd_name)
        self.add_command(command, cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.sheds_credentials and not ctx.resilient_parsing:
            shed_for(ctx.meta, name)
        command = self.get_command(ctx, name)
        if command is None and ctx.resilient_parsing:  # completing: nothing to offer
            return None, None, args[1:]
        if command is None:
            if name in self.discovery.available:
                info = self.discovery.available[name][0]
                raise InternalError(
                    N_("command '{name}' could not be loaded: its plugin {distribution} failed"),
                    name=name,
                    distribution=info.distribution or info.value, details=info.to_json(),
                )
            raise_unknown_command(name, self.list_commands(ctx), args[1:])
        return name, command, args[1:]


def _on_a_terminal() -> bool:
    from gzia.cli.terminal_ui import on_a_terminal

    return on_a_terminal()


@click.pass_context
def _help_without_command(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:
        show_help(ctx)
