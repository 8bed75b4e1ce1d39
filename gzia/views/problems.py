"""An error and a warning as people read them: ``Error: <message>`` and its hint,
``Warning: <message>``. The command line prints these lines; the terminal UI shows them."""

from __future__ import annotations

from gzia.contract import Problem
from gzia.i18n import gettext


def error_lines(problem: Problem, *, debug_hint: bool = False) -> list[str]:
    """``Error: <message>``, then the hint (``did you mean: --json?``, the next command),
    then (``debug_hint``, an internal error) how to see more."""
    lines = [f"{gettext('Error')}: {problem.message}"]
    if problem.hint:
        lines.append(problem.hint)
    if debug_hint and problem.code == "INTERNAL":
        lines.append(gettext("run again with --debug (or GZ_DEBUG=1) to see the traceback"))
    return lines


def warning_line(problem: Problem) -> str:
    return f"{gettext('Warning')}: {problem.message}"
