"""``gz-ia completion bash|zsh|fish``: click's own completion script for the shell.

The script calls ``gz-ia`` back with ``_GZ_IA_COMPLETE=<shell>_complete`` in its
environment; :func:`complete_if_asked` answers those calls (the words come from the
environment, not from argv) with the commands, subcommands and options click knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.runner import COMPLETE_VAR, PROGRAM
from gzia.contract import InvalidInputError
from gzia.i18n import N_

if TYPE_CHECKING:
    import click

SHELLS = ("bash", "zsh", "fish")

app = typer.Typer(add_completion=False)

Shell = Annotated[str, typer.Argument(help="bash, zsh or fish.", show_default=False)]


@app.command(help="Print the shell completion script (bash, zsh or fish).")
def completion(ctx: typer.Context, shell: Shell) -> None:
    script = completion_script(ctx.find_root().command, shell)
    output.emit({"shell": shell, "script": script},
                human=lambda: output.line(script.rstrip("\n")))


def completion_script(root: click.Command, shell: str) -> str:
    from click.shell_completion import get_completion_class

    completer = get_completion_class(shell) if shell in SHELLS else None
    if completer is None:
        raise InvalidInputError(N_("unsupported shell '{shell}': choose {choices}"), shell=shell,
                                choices=", ".join(SHELLS),
                                details={"shell": shell, "choices": list(SHELLS)})
    return completer(root, {}, PROGRAM, COMPLETE_VAR).source()
