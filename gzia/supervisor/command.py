"""The explicit command contract of a supervised run: argv, cwd, environment, PTY or not.

No shell is ever involved: ``argv[0]`` is executed with ``argv[1:]`` as they are. The
environment is complete (not merged with gz-ia's at spawn time), so what the agent sees
is exactly what the caller decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from gzia.contract import InvalidInputError
from gzia.i18n import N_


@dataclass(frozen=True)
class Command:
    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str] = field(default_factory=dict)
    pty: bool = False
    log_path: Path | None = None
    """The agent's output is copied here as well as to gz-ia's stdout (a PTY run, or a run
    without a terminal: see :func:`gzia.supervisor.run.output_is_logged`)."""
    log_max_bytes: int = 16 * 1024 * 1024
    """The log's cap (:class:`~gzia.supervisor.logfile.RotatingLog`; the config key
    ``session_log_max_bytes``)."""
    stdout_to_stderr: bool = False
    """The agent writes to gz-ia's stderr instead of its stdout (stdout is kept for JSON)."""

    def __post_init__(self) -> None:
        if not self.argv or not self.argv[0]:
            raise InvalidInputError(N_("no command to run"))
        for arg in self.argv:
            if not isinstance(arg, str) or "\0" in arg:
                raise InvalidInputError(N_("invalid command argument: {argument}"),
                                        argument=repr(arg))

    @property
    def output_fd(self) -> int:
        return 2 if self.stdout_to_stderr else 1

    def with_log(self, log_path: Path, max_bytes: int) -> Command:
        return replace(self, log_path=log_path, log_max_bytes=max_bytes)

