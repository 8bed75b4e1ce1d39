"""``--help`` in the user's language.

Commands declare their help in English, once; that text is its msgid in the catalogue
(gzia/locale/). :func:`help_text` shows, for the command being described, its own text,
its options' and its subcommands' summaries through gettext, and click's frame
(``Usage:``, ``Options``, ``[default: ...]``) comes from the same catalogue, because click
asks gettext for it (:func:`gzia.i18n.bind_click`). The placeholders click makes up
itself (``[OPTIONS]``, ``TEXT``, an argument's ``KEY``) are not gettext calls in click,
so they are set on the command from the catalogue before the page is drawn. A text the
catalogue does not have (a third-party plugin's) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

import click

from gzia.i18n import N_, bind_click, gettext, language

# The placeholders click and typer write in usage lines and beside options and arguments,
# marked so the catalogue keeps them (built-in arguments' names: COMMAND, KEY, VALUE).
PLACEHOLDERS = (
    N_("[OPTIONS]"), N_("COMMAND [ARGS]..."), N_("[COMMAND] [ARGS]..."), N_("TEXT"),
    N_("INTEGER"), N_("FLOAT"), N_("BOOLEAN"), N_("PATH"), N_("FILE"), N_("FILENAME"),
    N_("DIRECTORY"), N_("COMMAND"), N_("KEY"), N_("VALUE"), N_("INTEGER RANGE"),
    N_("FLOAT RANGE"))
# click's and typer's own texts on a help page, asked of gettext by click itself.
FRAME = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Arguments"),
    N_("Show this message and exit."), N_("default: {default}"), N_("required"),
    N_("env var: {var}"))


def help_text(ctx: click.Context) -> str:
    """The help page of ``ctx``'s command, in the current language.

    The commands' texts are set in that language while the page is drawn, and given
    back afterwards: a command object outlives one page (in-process callers, tests)."""
    bind_click()
    fit_to_terminal(ctx)
    if language() == "en":
        return ctx.get_help()
    changed: Changed = []
    try:
        _translate_command(ctx.command, ctx, changed)
        if isinstance(ctx.command, click.Group):
            for name in ctx.command.list_commands(ctx):
                sub = ctx.command.get_command(ctx, name)
                if sub is not None:
                    _translate_command(sub, ctx, changed)
        return ctx.get_help()
    finally:
        for target, name, english in reversed(changed):
            setattr(target, name, english)


def fit_to_terminal(ctx: click.Context) -> None:
    """Pages as wide as the terminal (``COLUMNS`` when set), not click's 80 columns at
    most (off a terminal, 80 as before), and words wrapped whole."""
    if ctx.max_content_width is None:
        import shutil

        ctx.max_content_width = shutil.get_terminal_size().columns
    ctx.formatter_class = WholeWordsFormatter


NON_BREAKING_HYPHEN = "\u2011"


class WholeWordsFormatter(click.HelpFormatter):
    """click's page, but no text is broken at a hyphen (``send-keys``, ``pi-agent``,
    ``gz-ia``): lines break between words only, in the rows, the paragraphs and the
    usage line alike."""

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        start = len(self.buffer)
        super().write_dl([(first, _joined(second)) for first, second in rows],
                         col_max, col_spacing)
        self._hyphens_back(start)

    def write_text(self, text: str) -> None:
        start = len(self.buffer)
        super().write_text(_joined(text))
        self._hyphens_back(start)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        start = len(self.buffer)
        super().write_usage(prog, _joined(args), prefix)
        self._hyphens_back(start)

    def _hyphens_back(self, start: int) -> None:
        self.buffer[start:] = [text.replace(NON_BREAKING_HYPHEN, "-")
                               for text in self.buffer[start:]]


def _joined(text: str) -> str:
    return text.replace("-", NON_BREAKING_HYPHEN)


Changed = list[tuple[object, str, object]]
"""What a page changed: (object, attribute, the English value), to give back."""


def _set(target: object, name: str, value: object, changed: Changed) -> None:
    changed.append((target, name, getattr(target, name)))
    setattr(target, name, value)


def _translate_command(command: click.Command, ctx: click.Context,
                       changed: Changed) -> None:
    _set(command, "help", _translated(command.help), changed)
    _set(command, "short_help", _translated(command.short_help), changed)
    if command.options_metavar:
        _set(command, "options_metavar", gettext(command.options_metavar), changed)
    if isinstance(command, click.Group) and command.subcommand_metavar:
        _set(command, "subcommand_metavar", gettext(command.subcommand_metavar), changed)
    for param in command.get_params(ctx):
        text = getattr(param, "help", None)  # options and arguments with help
        if isinstance(text, str):
            _set(param, "help", _translated(text), changed)
        _translate_placeholder(param, ctx, changed)


def _translated(text: str | None) -> str | None:
    return gettext(text) if text else text


def _translate_placeholder(param: click.Parameter, ctx: click.Context,
                           changed: Changed) -> None:
    """An option's ``TEXT``, a declared ``KEY`` or an argument's name as the catalogue has
    it; a type that draws its own (a choice's ``[a|b]``) stays as it is."""
    if param.metavar is not None:
        _set(param, "metavar", gettext(param.metavar), changed)
    elif param.type.get_metavar(param=param, ctx=ctx):
        return
    elif isinstance(param, click.Argument):
        english = (param.name or "").upper()
        # an argument's metavar is shown as set: keep click's [ ] and ... around it
        _set(param, "metavar", param.make_metavar(ctx).replace(english, gettext(english), 1),
             changed)
    else:
        _set(param, "metavar", gettext(param.type.name.upper()), changed)
