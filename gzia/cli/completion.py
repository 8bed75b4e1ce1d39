"""``gz-ia completion bash|zsh|fish``: click's own completion script for the shell.

The script calls ``gz-ia`` back with ``_GZ_IA_COMPLETE=<shell>_complete`` in its
environment; the root group's parser answers those calls
(:meth:`gzia.cli.root.RootGroup.complete`; the words come from the environment, not from
argv) with the commands, subcommands and options click knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import argument, command
from gzia.cli.root import COMPLETE_VAR, PROGRAM, SHELLS, click_completer
from gzia.contract import InvalidInputError
from gzia.i18n import N_

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def complete_shells(ctx: click.Context, param: click.Parameter,
                    incomplete: str) -> list[CompletionItem]:
    return completers.matching(SHELLS, incomplete)


@command("completion", help="Print the shell completion script (bash, zsh or fish).")
@argument("shell", help="bash, zsh or fish.", shell_complete=complete_shells)
@click.pass_context
def app(ctx: click.Context, shell: str) -> None:
    script = completion_script(ctx.find_root().command, shell)
    output.emit({"shell": shell, "script": script},
                human=lambda: output.line(script.rstrip("\n")))


def completion_script(root: click.Command, shell: str) -> str:
    completer = click_completer(shell)
    if completer is None:
        raise InvalidInputError(N_("unsupported shell '{shell}': choose {choices}"), shell=shell,
                                choices=", ".join(SHELLS),
                                details={"shell": shell, "choices": list(SHELLS)})
    return completer(root, {}, PROGRAM, COMPLETE_VAR).source()
