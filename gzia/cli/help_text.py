"""``--help`` in the user's language.

Commands declare their help in English, once. In Spanish, :func:`help_text` swaps each
text of the command being described (its own, its options', its subcommands' summaries)
for its entry in :mod:`gzia.i18n.help`, and draws click's frame (``Usage:``,
``Options``, ``[default: ...]``) and its placeholders (``[OPTIONS]``, ``TEXT``, ``KEY``)
in Spanish too. A text without an entry (a third-party
plugin's) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import click

from gzia.i18n import language
from gzia.i18n.help import ES, METAVARS

_EXTRAS = re.compile(r"(?:^|  )\[([^\[\]]+)\]$")  # click's "  [default: x; required]"
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]*\b")  # OPTIONS, TEXT, KEY: never a flag or a name


def help_text(ctx: click.Context) -> str:
    """The help page of ``ctx``'s command, in the current language."""
    if language() == "es":
        _translate_command(ctx.command)
        if isinstance(ctx.command, click.Group):
            for name in ctx.command.list_commands(ctx):
                sub = ctx.command.get_command(ctx, name)
                if sub is not None:
                    _translate_command(sub)
        ctx.formatter_class = SpanishHelpFormatter
    return ctx.get_help()


def _translate_command(command: click.Command) -> None:
    command.help = _spanish(command.help)
    command.short_help = _spanish(command.short_help)
    for param in command.params:
        text = getattr(param, "help", None)  # options and typer's arguments have help
        if isinstance(text, str):
            param.help = _spanish(text)  # type: ignore[attr-defined]


def _spanish(text: str | None) -> str | None:
    return ES.get(text, text) if text else text


class SpanishHelpFormatter(click.HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        prefix = prefix if prefix is not None else ES["Usage:"] + " "
        super().write_usage(prog, _placeholders(args), prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        with super().section(ES.get(name, name)):
            yield

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        rows = [(_placeholders(term), _row_text(text)) for term, text in rows]
        super().write_dl(rows, col_max, col_spacing)


def _placeholders(text: str) -> str:
    """``[OPTIONS] KEY`` as ``[OPCIONES] CLAVE``; placeholders it does not know (a
    plugin's own) stay as they are."""
    return _PLACEHOLDER.sub(lambda found: METAVARS.get(found[0], found[0]), text)


def _row_text(text: str) -> str:
    """An option's help as listed: the built-in help option's, or extras in brackets."""
    if text in ES:
        return ES[text]
    extras = _EXTRAS.search(text)
    if extras is None:
        return text
    parts = "; ".join(_extra(part) for part in extras.group(1).split("; "))
    return f"{text[:extras.start(1) - 1]}[{parts}]"


def _extra(part: str) -> str:
    name, _, value = part.partition(": ")
    if not value:
        return ES.get(part, part)  # "required"
    template = {"default": "default: {default}", "env var": "env var: {var}"}.get(name)
    if template is None:
        return part
    return ES[template].replace("{default}", value).replace("{var}", value)
