"""Write gz-ia's manual page, ``gz-ia.1``, from its command tree.

Usage: python build/man_page.py [OUTPUT]   (default: standard output)

Every visible built-in command, found by walking the click tree the way ``--help`` does
(a command is a click command whether it was written with click or with typer: the root
group turns typer apps into click commands when it loads them), with its usage, its help
and its options; the global options once, from the root. English, whatever the caller's
locale. build/shiv.sh runs it beside every zipapp it builds, so the page always matches
the code it ships with.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click

TITLE = "GZ-IA"


def roff(text: str) -> str:
    """``text`` safe in a roff line: backslashes escaped, no line read as a request."""
    lines = text.replace("\\", "\\e").replace("-", "\\-").splitlines()
    return "\n".join(f"\\&{line}" if line.startswith((".", "'")) else line for line in lines)


def paragraphs(help_text: str | None) -> list[str]:
    """A command's help as paragraphs (click's ``\\b`` markers and ``\\f`` tail removed)."""
    text = (help_text or "").split("\f")[0]
    blocks = [block.strip() for block in text.split("\n\n")]
    return [block.removeprefix("\b").strip() for block in blocks if block.strip() not in ("", "\b")]


Found = tuple[click.Command, click.Context]


def walk(command: click.Command, ctx: click.Context) -> Iterator[Found]:
    """``command`` and every visible command below it, depth first, in listed order."""
    yield command, ctx
    if not isinstance(command, click.Group):
        return
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        if sub is None or sub.hidden:
            continue
        yield from walk(sub, click.Context(sub, info_name=name, parent=ctx))


def options(command: click.Command, ctx: click.Context, skip: set[str]) -> list[str]:
    from gzia.cli.command import GzCommand, option_help

    lines = []
    for param in command.get_params(ctx):
        record = (option_help(command, param, ctx) if isinstance(command, GzCommand)
                  else param.get_help_record(ctx))
        if record is None or (param.name or "") in skip:
            continue
        names, help_text = record
        lines += [".TP", f"\\fB{roff(names)}\\fR", roff(help_text or "")]
    return lines


def command_section(command: click.Command, ctx: click.Context, skip: set[str]) -> list[str]:
    usage = roff(" ".join(command.collect_usage_pieces(ctx)))
    lines = [f'.SS "{roff(ctx.command_path)}"', ".PP",
             f"\\fB{roff(ctx.command_path)}\\fR {usage}"]
    from gzia.cli.command import shown_help

    for block in paragraphs(shown_help(command, ctx)):
        lines += [".PP", roff(block)]
    return lines + options(command, ctx, skip)


def man_page(root: click.Command, version: str, global_names: set[str]) -> str:
    """The page of ``root`` and its commands; options named in ``global_names`` are
    described once, under GLOBAL OPTIONS."""
    ctx = click.Context(root, info_name=root.name)
    name = roff(root.name or "")
    description = paragraphs(root.help)
    lines = [f'.TH {TITLE} 1 "" "{name} {roff(version)}" "User Commands"', ".SH NAME",
             f"{name} \\- {roff(description[0] if description else '')}", ".SH SYNOPSIS",
             f"\\fB{name}\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...",
             ".SH DESCRIPTION"]
    for block in description:
        lines += [".PP", roff(block)]
    lines += [".SH GLOBAL OPTIONS", *options(root, ctx, set()), ".SH COMMANDS"]
    for command, sub_ctx in walk(root, ctx):
        if command is not root:
            lines += command_section(command, sub_ctx, global_names)
    lines += [".SH EXIT STATUS", *exit_status(), ".SH SEE ALSO", "\\fBgit\\fR(1)"]
    return "\n".join(lines) + "\n"


def exit_status() -> list[str]:
    meanings = {0: "success", 1: "runtime failure", 2: "usage error",
                130: "interrupted (SIGINT)", 143: "terminated (SIGTERM)"}
    lines = []
    for code, meaning in meanings.items():
        lines += [".TP", f"\\fB{code}\\fR", meaning]
    return lines


def builtin_root() -> click.Command:
    """gz-ia's root group with only its own commands (no plugin of this machine)."""
    from gzia.cli.runner import build_root
    from gzia.plugins import ORIGIN_BUILTIN

    root = build_root()
    available = root.discovery.available
    for command_name in [n for n, (info, _) in available.items() if info.origin != ORIGIN_BUILTIN]:
        del available[command_name]
    return root


def main(argv: list[str]) -> int:
    os.environ["GZ_LANG"] = "en"
    os.environ["COLUMNS"] = "80"
    os.environ["GZ_DISABLE_PLUGINS"] = "all"  # the agents chat names: the built-in ones
    from gzia._version import __version__
    from gzia.cli.global_flags import global_options
    from gzia.i18n import set_language

    set_language("en")
    per_command = {o.name or "" for o in global_options()} | {"help"}
    page = man_page(builtin_root(), __version__, per_command)
    if argv:
        Path(argv[0]).write_text(page, encoding="utf-8")
    else:
        sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
