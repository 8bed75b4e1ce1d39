"""What every gz-ia command is: a click command with the global options, its help in
the user's language (plain text, or ``data.help`` in JSON mode), leftover arguments as
INVALID_INPUT and, for a group, an unknown subcommand as UNKNOWN_COMMAND.

Built-in commands are declared with :func:`command` and :func:`group`; a plugin's
command is adapted to the same classes when it is loaded (:mod:`gzia.cli.plugin_commands`).
A group's subcommands may be named with the ``module:attribute`` that defines them
(``lazy``): only the one asked for is imported.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

import click

from gzia.cli import output
from gzia.cli.credential_shedding import SHED_PENDING, shed_for
from gzia.cli.global_flags import apply_global_flags, with_global_options
from gzia.contract import InvalidInputError, UnknownCommandError
from gzia.i18n import N_, gettext

ARGS_META_KEY = "gzia.args"
F = TypeVar("F", bound=Callable[..., Any])

_parsing: list[click.Context] = []


def context_being_parsed() -> click.Context | None:
    """The context whose arguments were parsed last (click's errors may lack one)."""
    return _parsing[-1] if _parsing else None


class GzCommand(click.Command):
    """A gz-ia command: the global options, its raw arguments kept, ``--help`` answered
    itself, leftover arguments reported as INVALID_INPUT."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        with_global_options(self.params)

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
            flag = next((arg for arg in ctx.args if looks_like_a_flag(arg)), None)
            if flag is not None:  # left over by a command that lets values start with -
                raise unknown_flag(ctx, flag)
            raise InvalidInputError(N_("unexpected argument: {arguments}"),
                                    arguments=" ".join(ctx.args),
                                    details={"arguments": list(ctx.args)})
        return rest

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """``--help`` prints plain text, or one envelope with ``data.help`` in JSON mode.

        click keeps the option it made once, its text in the language of that moment: the
        text is the current language's on every page (in-process callers, tests)."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.callback = _show_help
            option.help = gettext(N_("Show this message and exit."))
        return option

    def filled(self, text: str | None, ctx: click.Context | None = None) -> str | None:
        """``text`` as a page shows it: :data:`AGENT_NAMES` replaced by the agents' ids."""
        if not text or AGENT_NAMES not in text:
            return text
        from gzia.drivers.registry import agent_names  # loads the drivers: only when named

        return text.replace(AGENT_NAMES, ", ".join(agent_names()))

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        template = self.help
        self.help = self.filled(template, ctx)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = template

    def get_short_help_str(self, limit: int = 45) -> str:
        template = self.help
        self.help = self.filled(template)
        try:
            return super().get_short_help_str(limit)
        finally:
            self.help = template

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """An ``Arguments`` section for the arguments that have help, then ``Options``."""
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = option_help(self, param, ctx)
            if record is not None:
                listed = arguments if isinstance(param, click.Argument) else options
                listed.append(record)
        for title, records in ((N_("Arguments"), arguments), (N_("Options"), options)):
            if records:
                with formatter.section(gettext(title)):
                    formatter.write_dl(records)


COMMAND_NAMES = "{commands}"
"""In a group's help, replaced by the names of its visible subcommands (``Manage local
agent sessions ({commands}).``): a new subcommand is named there without a text edited."""

AGENT_NAMES = "{agents}"
"""In a command's or an option's help, replaced by the ids of the drivers that are agents
(:func:`gzia.drivers.registry.agent_names`, a plugin's included): ``chat`` names them
without a text edited. The drivers are loaded only for a page that shows it."""


def option_help(command: GzCommand, param: click.Parameter,
                ctx: click.Context) -> tuple[str, str] | None:
    """``param``'s row on ``command``'s page (its help's :data:`AGENT_NAMES` filled)."""
    record = param.get_help_record(ctx)
    if record is None:
        return None
    return record[0], command.filled(record[1], ctx) or ""


class GzGroup(GzCommand, click.Group):
    """A gz-ia command group: subcommands listed in the order declared, those in ``lazy``
    imported only when named, an unknown one an UNKNOWN_COMMAND like ``gz-ia bogus``."""

    command_class = GzCommand

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None,
                 hidden_lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = {**(lazy or {}), **(hidden_lazy or {})}
        """Subcommand name → ``module:attribute`` of its command, imported when named."""
        self.hidden_lazy = set(hidden_lazy or ())
        """The names in ``lazy`` whose commands are hidden (aliases): known without
        importing them, so naming the group's subcommands imports none."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(dict.fromkeys([*self.lazy, *self.commands]))

    def visible_names(self, ctx: click.Context) -> list[str]:
        """The subcommands a page lists, in order, without importing a lazy one."""
        return [name for name in self.list_commands(ctx)
                if name not in self.hidden_lazy and (name in self.lazy
                                                     or not self.commands[name].hidden)]

    def filled(self, text: str | None, ctx: click.Context | None = None) -> str | None:
        """``text`` with :data:`COMMAND_NAMES` replaced by the visible subcommands (and
        :data:`AGENT_NAMES` by the agents)."""
        text = super().filled(text, ctx)
        if not text or COMMAND_NAMES not in text:
            return text
        names = self.visible_names(ctx or click.Context(self))
        return text.replace(COMMAND_NAMES, ", ".join(names))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and ctx.meta.get(SHED_PENDING) and not ctx.resilient_parsing:
            shed_for(ctx.meta, f"{self.name} {name}")
        if name and not name.startswith("-") and self.get_command(ctx, name) is None \
                and not ctx.resilient_parsing:  # completing: an unknown word completes nothing
            raise_unknown_command(name, self.list_commands(ctx), args[1:])
        return super().resolve_command(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        GzCommand.format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each visible subcommand with its whole summary (its help's first sentence),
        wrapped at word boundaries to the page's width, never cut short."""
        rows = []
        for name in self.list_commands(ctx):
            sub = self.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                rows.append((name, summary(sub)))
        if rows:
            with formatter.section(gettext("Commands")):
                formatter.write_dl(rows)


def shown_help(command: click.Command, ctx: click.Context) -> str | None:
    """A command's help as its page shows it (:data:`COMMAND_NAMES` and
    :data:`AGENT_NAMES` filled)."""
    return command.filled(command.help, ctx) if isinstance(command, GzCommand) else command.help


def summary(command: click.Command) -> str:
    """A command's one-line description: its short help, or its help's first sentence."""
    return command.get_short_help_str(limit=sys.maxsize)


def looks_like_a_flag(word: str) -> bool:
    """``--name`` or ``-x``; not ``-``, ``--`` or a negative number (``-5``)."""
    return (word.startswith("--") and len(word) > 2) or (
        len(word) == 2 and word[0] == "-" and word[1].isalpha())


def unknown_flag(ctx: click.Context, flag: str) -> click.NoSuchOption:
    """click's own error for ``flag``, with the close names click would suggest: one a
    command that accepts values starting with ``-`` did not reject itself."""
    names = [name for param in ctx.command.get_params(ctx) if isinstance(param, click.Option)
             for name in (*param.opts, *param.secondary_opts) if name.startswith("--")]
    return click.NoSuchOption(flag, possibilities=names, ctx=ctx)


def raise_unknown_command(name: str, known: list[str], rest: list[str]) -> NoReturn:
    import difflib  # only for a word that is no command: off every command's path

    apply_global_flags(None, rest)
    close = difflib.get_close_matches(name, known, n=3)
    raise UnknownCommandError(
        N_("unknown command: {command}"), command=name,
        hint_key=N_("did you mean: {choices}?") if close else None,
        choices=", ".join(close), details={"command": name, "suggestions": close},
    )


def _show_help(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if not value or ctx.resilient_parsing:
        return
    show_help(ctx)
    raise click.exceptions.Exit(0)


def show_help(ctx: click.Context) -> None:
    """The help of ``ctx``'s command: plain text, or ``data.help`` in JSON mode."""
    from gzia.cli.help_text import help_text

    text = help_text(ctx)
    out = output.current()
    if out.json:
        out.emit({"help": text})
    else:
        out.stdout.write(text + "\n")
        out.stdout.flush()


BUILT_IN_SETTINGS = {"show_default": True}
"""Every built-in command shows its options' defaults (``[default: shell]``)."""


def command(name: str | None = None, *, help: str, **attrs: Any) -> Callable[[F], GzCommand]:
    """A built-in command: ``@command("list", help=...)`` over its function."""
    settings = {**BUILT_IN_SETTINGS, **attrs.pop("context_settings", {})}
    return click.command(name, cls=GzCommand, help=help, context_settings=settings, **attrs)


def group(name: str | None = None, *, help: str, **attrs: Any) -> Callable[[F], GzGroup]:
    """A built-in command group (``lazy=`` its subcommands' ``module:attribute``)."""
    settings = {**BUILT_IN_SETTINGS, **attrs.pop("context_settings", {})}
    return click.group(name, cls=GzGroup, help=help, context_settings=settings, **attrs)


def alias(original: click.Command, name: str, *, help: str) -> GzCommand:
    """A hidden second name for ``original``: same options, same code (a group: the same
    subcommands)."""
    settings = {"params": list(original.params), "callback": original.callback,
                "hidden": True, "help": help, "context_settings": dict(original.context_settings)}
    if isinstance(original, GzGroup):
        hidden = {n: original.lazy[n] for n in original.hidden_lazy}
        shown = {n: target for n, target in original.lazy.items() if n not in hidden}
        return GzGroup(name, commands=original.commands, lazy=shown, hidden_lazy=hidden,
                       no_args_is_help=original.no_args_is_help, **settings)
    return GzCommand(name, **settings)


class HelpArgument(click.Argument):
    """An argument with a help text, listed under ``Arguments`` on its command's page:
    ``ID  Session id (or unique prefix).  [required]``."""

    def __init__(self, param_decls: Sequence[str], help: str | None = None,
                 **attrs: Any) -> None:
        super().__init__(param_decls, **attrs)
        self.help = help

    def make_metavar(self, ctx: click.Context) -> str:
        if self.metavar is None:
            return super().make_metavar(ctx)
        shown = self.metavar
        if not self.required and not shown.startswith("["):
            shown = f"[{shown}]"
        return shown + ("..." if self.nargs != 1 and not shown.endswith("...") else "")

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        extra = [gettext("required")] if self.required else []
        text = self.help or ""
        if extra:
            text = f"{text}  [{'; '.join(extra)}]" if text else f"[{'; '.join(extra)}]"
        return self.make_metavar(ctx), text


def argument(*param_decls: str, **attrs: Any) -> Callable[[F], F]:
    """``click.argument`` with a help text (:class:`HelpArgument`)."""
    return click.argument(*param_decls, cls=HelpArgument, **attrs)
