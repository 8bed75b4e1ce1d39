"""The options every gz-ia command accepts, before or after its name, declared once.

:data:`gzia.cli.output.GLOBAL_FLAGS` names them and what each turns on. Every command
carries them as click options (:func:`global_options`), and :func:`apply_global_flags`
turns on those a command's own arguments hold, read by that command's click parser just
before it parses them for real. So ``--help``, ``--version``, a usage error or an
unknown subcommand further on are answered in the mode asked for
(``gz-ia session list --bogus --json`` writes one JSON document): click reads the flags,
no scanner of gz-ia's beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from gzia.cli.output import GLOBAL_FLAGS, current


def global_options() -> list[click.Option]:
    """Fresh Option objects for the global flags (one set per command)."""
    return [click.Option(list(flag.names), is_flag=True, expose_value=False, help=flag.help)
            for flag in GLOBAL_FLAGS]


def with_global_options(params: list[click.Parameter]) -> None:
    """Add the global options to a command's ``params``, but for a name it declares itself."""
    names = {opt for param in params for opt in getattr(param, "opts", ())}
    params.extend(o for o in global_options() if not names & set(o.opts))


def apply_global_flags(command: click.Command | None, args: Sequence[str]) -> None:
    """Turn on the global flags among ``args`` as ``command`` parses them: an option that
    takes a value consumes the next word (``-i --json`` is a prompt), a group's own
    arguments end at its subcommand's name, ``--`` ends them all. With no command (an
    unknown one), the flags are looked for among all the words before ``--``."""
    if command is None:
        command = click.Command(None, params=list[click.Parameter](global_options()))
    values = lenient_parse(command, list(args))
    for option, flag in zip(global_options(), GLOBAL_FLAGS, strict=True):
        if values.get(option.name):
            flag.apply(current())


def lenient_parse(command: click.Command, args: list[str]) -> dict[str, Any]:
    """The option values click's parser finds in ``args`` for ``command``, unknown options
    skipped and a misused one (``--json=1``, ``-d`` without its value) left out."""
    ctx = click.Context(command, ignore_unknown_options=True, allow_extra_args=True,
                        help_option_names=[])  # none: click would keep this context's one
    parser = command.make_parser(ctx)
    remaining: list[str] | None = args
    while remaining is not None:
        try:
            return dict(parser.parse_args(list(remaining))[0])  # the parser consumes its list
        except click.UsageError as error:
            remaining = without_misuse(remaining, getattr(error, "option_name", None) or "")
    return {}


def without_misuse(args: list[str], name: str) -> list[str] | None:
    """``args`` without the words click refused for option ``name``: every ``name=value``
    of a flag, or the ``name`` at the end that lacks its value; ``None`` if none is."""
    if name and any(arg.startswith(f"{name}=") for arg in args):
        return [arg for arg in args if not arg.startswith(f"{name}=")]
    if name and args and args[-1] == name:
        return args[:-1]
    return None
