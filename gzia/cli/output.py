"""How a command's result reaches the user: a JSON envelope, or human text.

One :class:`Output` is made per invocation by the runner and handed to the commands in
click's ``ctx.obj``; the functions of this module (:func:`emit`, :func:`line`,
:func:`warn`, ...) report through the invocation's own :class:`Output` (:func:`current`),
so commands and plugins call them as they are. ``gzia.cli.main`` writes the single JSON
envelope at the very end, on success and on every failure path, so stdout carries
exactly one document in JSON mode.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TextIO

from gzia.contract import Problem, WarningCode
from gzia.i18n import gettext


class JSONText(str):
    """A value that is JSON text already: the envelope holds it as it is, not as a string.

    For output too large to encode again, such as ``session list`` printing the records
    in the form they were stored.
    """


class Output:
    """One invocation's reporter: its mode (``--json``, ``-q``, ``--debug``), its result,
    its warnings, and the streams it writes to, taken when it is made.

    In JSON mode the document goes to the stdout it was made with, alone: stdout's file
    descriptor is pointed at stderr until the document is written (:meth:`set_json`), so
    a stray print (a plugin, a library) or a child process writing to it cannot break
    the document; ``sys.stdout`` itself is never replaced.
    """

    def __init__(self, *, debug: bool = False, stdout: TextIO | None = None,
                 stderr: TextIO | None = None) -> None:
        self.json = False
        self.quiet = False
        self.debug = debug
        self.data: Any = None
        self.warnings: list[Problem] = []
        self.outcome_exit = 0
        """The exit code of a call that succeeded but reports an outcome (:meth:`exit_with`)."""
        self.release_notice = True
        """Whether the outcome carries the channel's minimum-version notice (off for the
        commands that report it themselves)."""
        self.stdout = sys.stdout if stdout is None else stdout
        self.stderr = sys.stderr if stderr is None else stderr
        self._document_fd: int | None = None
        """stdout's own descriptor, kept aside while descriptor 1 points at stderr."""

    def set_json(self, value: bool = True) -> None:
        """Enter JSON mode: from now on writes to stdout's descriptor go to stderr; the
        document alone goes to stdout (:meth:`write_document`)."""
        if value and not self.json:
            self.json = True
            self._document_fd = _set_aside(self.stdout, self.stderr)

    def set_quiet(self, value: bool = True) -> None:
        if value:
            self.quiet = True

    def set_debug(self, value: bool = True) -> None:
        if value:
            self.debug = True

    def give_stdout_away(self) -> None:
        """stdout belongs to another protocol from now on (``gz-ia mcp``): no envelope is
        written at the end, and a later warning or error is text on stderr."""
        self.finish()
        self.json = False

    @contextmanager
    def stdout_restored(self) -> Iterator[None]:
        """stdout's own descriptor back in place for a while (a command line run again in
        this process must find its stdout where the user put it), then set aside again."""
        if not self.json:
            yield
            return
        self.finish()
        try:
            yield
        finally:
            self._document_fd = _set_aside(self.stdout, self.stderr)

    def finish(self) -> None:
        """Give stdout's descriptor back (after flushing what strayed to it meanwhile)."""
        if self._document_fd is not None:
            fd, self._document_fd = self._document_fd, None
            _put_back(self.stdout, fd)

    def write_document(self, text: str) -> None:
        """The JSON document, on stdout, whatever strayed to stderr meanwhile."""
        if self._document_fd is None:
            self.stdout.write(text)
            self.stdout.flush()
            return
        encoding = getattr(self.stdout, "encoding", None) or "utf-8"
        data = memoryview(text.encode(encoding, "backslashreplace"))
        while data:
            data = data[os.write(self._document_fd, data):]

    def emit(self, data: Any, human: Callable[[], None] | None = None) -> None:
        """Record the command's result; in human mode render it now (unless ``-q``)."""
        self.data = data
        if not self.json and not self.quiet and human is not None:
            human()

    def exit_with(self, code: int) -> None:
        """End a successful call with exit code ``code``: ``ok: true``, no errors, and the
        exit code carries an outcome for the shell (``session wait``)."""
        self.outcome_exit = code

    def line(self, text: str = "", *, err: bool = False) -> None:
        """Write one line of human output (nothing in JSON mode)."""
        if not self.json:
            write_for_people(self.stderr if err else self.stdout, text + "\n")

    def progress(self, text: str) -> None:
        """A status line for people (stderr); silent in JSON mode and with ``-q``."""
        if not self.json and not self.quiet:
            write_for_people(self.stderr, text + "\n")

    def add_warning(self, problem: Problem) -> None:
        """Keep a warning for the envelope; in human mode print it, unless ``-q``."""
        self.warnings.append(problem)
        if not self.json and not self.quiet:
            from gzia.views.problems import warning_line

            write_for_people(self.stderr, warning_line(problem) + "\n")

    def error(self, lines: list[str]) -> None:
        """The ``Error:`` line and its hint (:func:`gzia.views.problems.error_lines`)."""
        write_for_people(self.stderr, "\n".join(lines) + "\n")


def _set_aside(stdout: TextIO, stderr: TextIO) -> int | None:
    """Point stdout's descriptor at stderr's; return a copy of stdout's own, or None when
    the streams are not files (an in-process caller's buffers)."""
    try:
        out_fd, err_fd = stdout.fileno(), stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    # not flushed first: what a plugin printed before --json was read goes to stderr too
    kept = os.dup(out_fd)
    os.dup2(err_fd, out_fd)
    return kept


def _put_back(stdout: TextIO, kept: int) -> None:
    with suppress(OSError, ValueError):
        stdout.flush()  # what strayed to it goes to stderr, where it was sent
    try:
        os.dup2(kept, stdout.fileno())
    finally:
        os.close(kept)


_current: ContextVar[Output | None] = ContextVar("gzia_output", default=None)


@contextmanager
def reporting(out: Output) -> Iterator[Output]:
    """Make ``out`` the reporter of the code run inside (this thread and context)."""
    token = _current.set(out)
    try:
        yield out
    finally:
        _current.reset(token)
        out.finish()


def current() -> Output:
    """The reporter of the command being run: the one in click's ``ctx.obj``, else the one
    :func:`reporting` set; outside any invocation, a fresh one (human mode)."""
    import click

    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(Output) if ctx is not None else None
    if found is None:
        found = _current.get()
    return found if found is not None else Output()


@dataclass(frozen=True)
class GlobalFlag:
    """An option every command accepts, before or after the command's name."""

    names: tuple[str, ...]
    help: str
    apply: Callable[[Output], None]


GLOBAL_FLAGS = (
    GlobalFlag(("--json",), "Write one JSON document to stdout.", Output.set_json),
    GlobalFlag(("-q", "--quiet"), "Print only errors.", Output.set_quiet),
    GlobalFlag(("--debug",), "Show tracebacks of internal errors.", Output.set_debug),
)


def is_json() -> bool:
    return current().json


def emit(data: Any, human: Callable[[], None] | None = None) -> None:
    current().emit(data, human)


def exit_with(code: int) -> None:
    current().exit_with(code)


def line(text: str = "", *, err: bool = False) -> None:
    current().line(text, err=err)


def lines(texts: list[str]) -> None:
    """Write a view's lines (nothing in JSON mode), in one write: thousands of rows stay fast."""
    if texts:
        current().line("\n".join(texts))


def progress(text: str) -> None:
    current().progress(text)


def write_for_people(stream: TextIO, text: str) -> None:
    """Write human output, shown safely on a terminal (:func:`gzia.views.safe_text.for_stream`)."""
    from gzia.views.safe_text import for_stream

    stream.write(for_stream(stream, text))
    stream.flush()


def warn(code: WarningCode, key: str, /, *, details: dict[str, Any] | None = None,
         **params: Any) -> None:
    """Add a warning: into the envelope in JSON mode, on stderr otherwise (not with -q)."""
    current().add_warning(Problem(code, gettext(key, **params), details=details or {}))


def add_warning(problem: Problem) -> None:
    current().add_warning(problem)
