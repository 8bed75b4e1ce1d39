"""The TUI's calls into the services the CLI commands use, and nothing more.

Each function is what a ``gz-ia session ...`` command calls, without the rendering: the
screens show the result, or the error's message and hint as the CLI would
(:func:`problem_of`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.contract import Problem, problem_from

if TYPE_CHECKING:
    from gzia.sessions.store import ListResult, SessionStore


def list_sessions(store: SessionStore) -> ListResult:
    """The project's sessions, newest first, reconciled: ``gz-ia session list``."""
    from gzia.sessions.reconcile import list_sessions as listed

    return listed(store)


def problem_of(exc: BaseException) -> Problem:
    """The message and hint the CLI prints for ``exc`` (its ``Error:`` line and hint)."""
    return problem_from(exc)
