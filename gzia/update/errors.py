"""Why one update source could not be used; ``key`` and ``params`` name the message."""

from __future__ import annotations

from typing import Any


class SourceFailure(Exception):
    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @property
    def message(self) -> str:
        from gzia.i18n import t

        return t(self.key, **self.params)

    def __str__(self) -> str:
        return self.message
