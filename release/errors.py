"""The one exception of the release tooling: one of gz-ia's error codes, a message, a hint.

Its exit code and its JSON form come from gz-ia's own contract (``gzia.contract``), so the
release tooling answers exactly as gz-ia does.
"""

from __future__ import annotations

from typing import Any

from gzia.contract import EXIT_CODES, RETRYABLE, ErrorCode, GzError, Problem, problem_from


class ReleaseError(Exception):
    """A failure the tooling reports; ``code`` is one of gz-ia's error codes."""

    def __init__(
        self, code: str, message: str, hint: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.hint = hint
        self.details = details or {}

    def problem(self) -> Problem:
        return Problem(self.code, self.message, self.code in RETRYABLE, self.hint, self.details)


def as_problem(exc: ReleaseError | GzError) -> Problem:
    """A release failure, or one of gz-ia's own (a bad proxy URL, a bad signature)."""
    return exc.problem() if isinstance(exc, ReleaseError) else problem_from(exc)


def exit_code(problems: list[Problem]) -> int:
    """gz-ia's rule: 2 for a usage error, 1 for any other failure, 0 for none."""
    return max((int(EXIT_CODES[ErrorCode(p.code)]) for p in problems), default=0)
