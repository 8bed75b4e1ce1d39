"""Why one update source could not be used: ``key`` and ``params`` make the message,
``reason_code`` (the key unless given) is what JSON ``details.reason`` says."""

from __future__ import annotations

from typing import Any

from gzia.i18n import gettext


class SourceFailure(Exception):
    def __init__(self, key: str, /, *, reason_code: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.reason_code = key if reason_code is None else reason_code
        self.params = params

    @property
    def message(self) -> str:
        return gettext(self.key, **self.params)

    def __str__(self) -> str:
        return self.message


def source_failed_params(source_name: str, failure: SourceFailure) -> dict[str, str]:
    """What ``update.source_failed`` says of a source that failed: which one, why, and
    which source is tried next (the CLI's warning and the TUI's line say the same)."""
    following = "Forgejo" if source_name == "nexus" else "Nexus"
    return {"source": source_name.capitalize(), "reason": failure.message, "next": following}
