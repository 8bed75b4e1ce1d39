"""A command group added to gz-ia by a separate distribution."""

import sys
import time

import typer

from gzia.cli import output
from gzia.i18n import N_

app = typer.Typer(help="Example commands from a plugin.")


@app.command()
def hello(name: str = "world") -> None:
    """Greet someone."""
    output.emit({"greeting": f"hello {name}"}, lambda: output.line(f"hello {name}"))


@app.command()
def fail() -> None:
    """Fail the way domain code does."""
    from gzia.contract import IOFailure

    raise IOFailure(N_("I/O error: {detail}"), detail="disk full")


@app.command()
def crash() -> None:
    """Fail the way a bug does."""
    raise RuntimeError("boom")


@app.command()
def wait(seconds: float = 30.0) -> None:
    """Sleep, so a test can signal the process."""
    sys.stderr.write("waiting\n")  # tells the test the command is running, in any mode
    sys.stderr.flush()
    time.sleep(seconds)
    output.emit({"waited": seconds})


@app.command()
def flood(lines: int = 100000) -> None:
    """Write many lines, so a test can close the pipe under it."""
    output.emit({"lines": lines}, lambda: [output.line(f"line {i}") for i in range(lines)])
