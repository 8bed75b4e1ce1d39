"""How a command's result reaches the user: a JSON envelope, or human text.

Commands never print directly. They call :func:`emit` once with their data and a
human renderer, :func:`warn` for warnings, and :func:`line` from inside a renderer.
``gzia.cli.main`` writes the single JSON envelope at the very end, on success and on
every failure path, so stdout carries exactly one document in JSON mode.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from gzia.contract import Problem, WarningCode
from gzia.i18n import gettext


class JSONText(str):
    """A value that is JSON text already: the envelope holds it as it is, not as a string.

    For output too large to encode again, such as ``session list`` printing the records
    in the form they were stored.
    """


@dataclass
class OutputState:
    json: bool = False
    quiet: bool = False
    debug: bool = False
    data: Any = None
    warnings: list[Problem] = field(default_factory=list)
    outcome_exit: int = 0
    """The exit code of a call that succeeded but reports an outcome (see :func:`exit_with`)."""
    stdout: TextIO | None = None  # the real stdout while JSON mode lends sys.stdout to stderr


state = OutputState()


def reset(*, debug: bool = False) -> None:
    """Start a fresh invocation (``main`` calls this; tests rely on it)."""
    global state  # noqa: PLW0603 - one invocation, one output state
    restore_stdout()
    state = OutputState(debug=debug)


def set_json(value: bool) -> None:
    """Enter JSON mode: from now on stray prints (a plugin, a library) go to stderr, so
    stdout carries nothing but the one envelope, written to :func:`document_stream`."""
    if value and not state.json:
        state.json = True
        state.stdout = sys.stdout
        sys.stdout = sys.stderr


def document_stream() -> TextIO:
    return state.stdout if state.stdout is not None else sys.stdout


def restore_stdout() -> None:
    """Give sys.stdout back at the end of an invocation."""
    if state.stdout is not None:
        sys.stdout = state.stdout
        state.stdout = None


def give_stdout_away() -> None:
    """stdout belongs to another protocol from now on (``gz-ia mcp``): sys.stdout is the
    real one again, no envelope is written at the end, and a later warning or error is
    reported on stderr as text, in either mode."""
    restore_stdout()
    state.json = False


def set_quiet(value: bool) -> None:
    if value:
        state.quiet = True


def set_debug(value: bool) -> None:
    if value:
        state.debug = True


@dataclass(frozen=True)
class GlobalFlag:
    """An option every command accepts, before or after the command's name."""

    names: tuple[str, ...]
    help: str
    apply: Callable[[bool], None]


GLOBAL_FLAGS = (
    GlobalFlag(("--json",), "Write one JSON document to stdout.", set_json),
    GlobalFlag(("-q", "--quiet"), "Print only errors.", set_quiet),
    GlobalFlag(("--debug",), "Show tracebacks of internal errors.", set_debug),
)


def is_json() -> bool:
    return state.json


def emit(data: Any, human: Callable[[], None] | None = None) -> None:
    """Record the command's result; in human mode render it now (unless ``-q``)."""
    state.data = data
    if not state.json and not state.quiet and human is not None:
        human()


def exit_with(code: int) -> None:
    """End a successful call with exit code ``code``: ``ok: true``, no errors, and the exit
    code carries an outcome for the shell (``session wait``: a session did not succeed)."""
    state.outcome_exit = code


def line(text: str = "", *, err: bool = False) -> None:
    """Write one line of human output (nothing in JSON mode)."""
    if state.json:
        return
    write_for_people(sys.stderr if err else sys.stdout, text + "\n")


def lines(texts: list[str]) -> None:
    """Write a view's lines (nothing in JSON mode), in one write: thousands of rows stay fast."""
    if texts:
        line("\n".join(texts))


def progress(text: str) -> None:
    """A status line for people (stderr); silent in JSON mode and with ``-q``."""
    if not state.json and not state.quiet:
        write_for_people(sys.stderr, text + "\n")


def write_for_people(stream: TextIO, text: str) -> None:
    """Write human output, shown safely on a terminal (:func:`gzia.views.safe_text.for_stream`)."""
    from gzia.views.safe_text import for_stream

    stream.write(for_stream(stream, text))
    stream.flush()


def warn(code: WarningCode, key: str, /, *, details: dict[str, Any] | None = None,
         **params: Any) -> None:
    """Add a warning: into the envelope in JSON mode, on stderr otherwise (not with -q)."""

    problem = Problem(code, gettext(key, **params), details=details or {})
    add_warning(problem)


def add_warning(problem: Problem) -> None:
    """Keep a warning for the envelope; in human mode print it, unless ``-q`` (errors only)."""
    state.warnings.append(problem)
    if not state.json and not state.quiet:
        from gzia.views.problems import warning_line

        write_for_people(sys.stderr, warning_line(problem) + "\n")
