"""The root command group: command groups load lazily from ``gzia.commands`` entry points.

Only the command that was asked for is imported; ``--help`` imports them all. Every
loaded command also accepts the global options, so ``gz-ia session list --json`` works
like ``gz-ia --json session list``.
"""

from __future__ import annotations

import difflib
import sys
from typing import Any

import click

from gzia.cli import output
from gzia.cli.global_flags import apply_global_flags, global_options
from gzia.cli.plugin_warnings import discover_commands, report_plugin_failure
from gzia.contract import InternalError, InvalidInputError, UnknownCommandError
from gzia.i18n import N_
from gzia.plugins import Discovery, PluginFailure, load_entry_point

ARGS_META_KEY = "gzia.args"


_parsing: list[click.Context] = []


def context_being_parsed() -> click.Context | None:
    """The context whose arguments were parsed last (click's errors may lack one)."""
    return _parsing[-1] if _parsing else None


class GzCommand(click.Command):
    """What every gz-ia command does beyond click: keep its raw arguments, answer
    ``--help`` itself, and report leftover arguments as INVALID_INPUT."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Keep the raw arguments, to find --json after a usage error.

        Arguments left over by a command that takes none are our INVALID_INPUT (click
        would fail with its own English sentence).
        """
        ctx.meta[ARGS_META_KEY] = list(args)
        _parsing[:] = [ctx]
        if not ctx.resilient_parsing:  # completing 'gz-ia --json ses<TAB>' prints no JSON
            apply_global_flags(self, args)
        if isinstance(self, click.Group) or ctx.allow_extra_args:
            return super().parse_args(ctx, args)
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        finally:
            ctx.allow_extra_args = False
        if ctx.args and not ctx.resilient_parsing:
            raise InvalidInputError(N_("unexpected argument: {arguments}"),
                                    arguments=" ".join(ctx.args),
                                    details={"arguments": list(ctx.args)})
        return rest

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """``--help`` prints plain text, or one envelope with ``data.help`` in JSON mode."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.callback = _show_help
        return option


class GzGroup(GzCommand, click.Group):
    """A gz-ia command group: its commands behave as :class:`GzCommand` does, and an
    unknown subcommand is an UNKNOWN_COMMAND like ``gz-ia bogus``."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None \
                and not ctx.resilient_parsing:  # completing: an unknown word completes nothing
            raise_unknown_command(name, self.list_commands(ctx), args[1:])
        return super().resolve_command(ctx, args)


def _show_help(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if not value or ctx.resilient_parsing:
        return
    show_help(ctx)
    raise click.exceptions.Exit(0)


def show_help(ctx: click.Context) -> None:
    """The help of ``ctx``'s command: plain text, or ``data.help`` in JSON mode."""
    from gzia.cli.help_text import help_text

    text = help_text(ctx)
    if output.is_json():
        output.emit({"help": text})
    else:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


_gz_classes: dict[type[click.Command], type[click.Command]] = {}


def gz_class(cls: type[click.Command]) -> type[click.Command]:
    """``cls`` with :class:`GzCommand` or :class:`GzGroup` mixed in ahead of it (cached).

    Commands reach the root the same way whether built in or from a plugin: an entry
    point yields a typer app or a click command of any class, built by code gz-ia does
    not control. Declaring ``cls=`` on each built-in app would be a second path that
    every new command must remember, and cannot reach plugins. So every loaded command
    is given, once, a subclass of its own class with gz-ia's behaviour first in the
    method order: typer's or the plugin's overrides still run, through ``super()``.
    """
    if issubclass(cls, GzCommand):
        return cls
    if cls not in _gz_classes:
        mixin: type[GzCommand] = GzGroup if issubclass(cls, click.Group) else GzCommand
        _gz_classes[cls] = type(f"Gz{cls.__name__}", (mixin, cls), {})
    return _gz_classes[cls]


def adopt(command: click.Command) -> click.Command:
    """Make a loaded command (and its subcommands) a gz-ia command with the global options.

    Typer's rich help would print boxes straight to stdout, even in JSON mode and even
    while a usage error is being built; click's plain formatter returns text instead.
    """
    names = {opt for p in command.params for opt in getattr(p, "opts", [])}
    command.params.extend(o for o in global_options() if not names & set(o.opts))
    command.__class__ = gz_class(type(command))
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            adopt(sub)
    return command


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
        self._loaded: dict[str, click.Command] = {}

    @property
    def discovery(self) -> Discovery:
        if self._discovery is None:
            self._discovery = discover_commands()
        return self._discovery

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.discovery.available)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._loaded:
            return self._loaded[cmd_name]
        entry = self.discovery.available.get(cmd_name)
        if entry is None:
            return None
        info, ep = entry
        loaded = load_entry_point(info, ep)
        if isinstance(loaded, PluginFailure):
            report_plugin_failure(loaded)
            return None
        command = adopt(to_click(loaded, cmd_name))
        self._loaded[cmd_name] = command
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.sheds_credentials and not ctx.resilient_parsing:
            from gzia.cli.credential_shedding import shed_credentials

            shed_credentials(name)  # before the command's code is even imported
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=70)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.pass_context
def _help_without_command(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:
        show_help(ctx)


def to_click(loaded: Any, name: str) -> click.Command:
    """A plugin exposes a typer.Typer app or a click command."""
    if isinstance(loaded, click.Command):
        return loaded
    import typer

    if isinstance(loaded, typer.Typer):
        command = typer.main.get_command(loaded)
        command.name = name
        return command
    raise InternalError(N_("plugin '{name}' is not a command group (it is a {kind})"), name=name,
                        kind=type(loaded).__name__)


def raise_unknown_command(name: str, known: list[str], rest: list[str]) -> None:
    apply_global_flags(None, rest)
    close = difflib.get_close_matches(name, known, n=3)
    raise UnknownCommandError(
        N_("unknown command: {command}"), command=name,
        hint_key=N_("did you mean: {choices}?") if close else None,
        choices=", ".join(close), details={"command": name, "suggestions": close},
    )
