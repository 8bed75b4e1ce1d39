"""How one invocation ends: exactly one outcome, as an exit code plus one JSON envelope
(JSON mode) or ``Error: <message>`` on stderr.

:mod:`gzia.cli.runner` ends every command here. Nothing here imports click.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from gzia.cli.output import JSONText, Output, reporting
from gzia.cli.release_notice import add_release_notice
from gzia.config import debug_requested
from gzia.contract import (
    ExitCode,
    GzError,
    Problem,
    TerminationRequested,
    classify,
    envelope,
    problem_from,
)


@contextmanager
def invocation() -> Iterator[Output]:
    """The invocation's reporter, and SIGTERM/SIGHUP raised as :class:`TerminationRequested`
    so they end the command like any error (a hangup stops cleanly too)."""
    out = Output(debug=debug_requested())
    previous = {signum: signal.signal(signum, _raise_terminated)
                for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with reporting(out):
            yield out
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise TerminationRequested


def succeeded(out: Output) -> int:
    add_release_notice(out)
    if out.json:
        try:
            text = encode_envelope(envelope(True, out.data, [], out.warnings))
        except ValueError as exc:  # a value JSON cannot hold: the outcome is that error
            return failed(out, exc)
        with reader_may_leave():
            out.write_document(text + "\n")
    return out.outcome_exit or ExitCode.OK


def failed(out: Output, exc: BaseException) -> int:
    add_release_notice(out)
    exit_code, code = classify(exc)
    problem = problem_from(exc)
    with reader_may_leave():
        if out.json:
            data = exc.data if isinstance(exc, GzError) else None
            try:
                text = encode_envelope(envelope(False, data, [problem], out.warnings))
            except ValueError:
                text = encode_envelope(envelope(False, None, [problem], []))
            out.write_document(text + "\n")
        else:
            _render_error(out, problem)
    if code == "INTERNAL" and out.debug:
        import traceback

        traceback.print_exception(exc, file=out.stderr)
    return int(exit_code)


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """A reader that closed stdout or stderr (``gz-ia ... | head -1``, ``2>&1 | true``)
    while the outcome was written does not change it: the exit code stays the command's."""
    try:
        yield
    except BrokenPipeError:
        from gzia.cli import settle_streams

        settle_streams()


def _render_error(out: Output, problem: Problem) -> None:
    from gzia.views.problems import error_lines

    out.error(error_lines(problem, debug_hint=not out.debug))


def encode_envelope(document: dict[str, Any]) -> str:
    """The envelope as one line of JSON; a :class:`~gzia.cli.output.JSONText` value goes
    in as the JSON it already is. The same text ``json.dumps`` gives for plain values.

    Always RFC 8259 JSON: a NaN or an infinity, which JSON has no word for, and an
    integer too long to print (Python's 4300-digit limit) raise ``ValueError``."""
    if not any(isinstance(value, JSONText) for value in document.values()):
        return _dumps(document)
    members = (f"{_dumps(key)}: {value if isinstance(value, JSONText) else _dumps(value)}"
               for key, value in document.items())
    return "{" + ", ".join(members) + "}"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, allow_nan=False)
