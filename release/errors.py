"""The one exception of the release tooling: a stable code, a message and an optional hint."""

from __future__ import annotations

USAGE_CODES = frozenset({"INVALID_INPUT"})


class ReleaseError(Exception):
    """A failure the tooling reports; ``code`` is one of gz-ia's error codes."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    @property
    def exit_code(self) -> int:
        return 2 if self.code in USAGE_CODES else 1

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "hint": self.hint}
