"""What a run takes from the settings and the terminal, the same for every front end:
``gz-ia chat``, ``exec``, ``resume`` and the terminal UI's new session."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gzia.config import load_config
from gzia.sessions.background import BackgroundOptions
from gzia.supervisor.watchdog import Watchdog

if TYPE_CHECKING:
    from gzia.sessions.background import BackgroundOptions


def push_allowed(flag: bool) -> bool:
    """``--allow-push``, else the ``allow_push`` setting."""
    return flag or bool(load_config().get("allow_push"))


def configured_watchdog(
    timeout_s: float | None = None, no_output_timeout_s: float | None = None
) -> Watchdog:
    return Watchdog(kill_grace_ms=int(load_config().get("kill_grace_ms")),
                    timeout_s=timeout_s, no_output_timeout_s=no_output_timeout_s)


def background_options(background: bool) -> BackgroundOptions | None:
    """What a ``-b`` run needs from config and the terminal; None without ``-b``."""
    if not background:
        return None

    return BackgroundOptions(log_max_bytes=int(load_config().get("session_log_max_bytes")),
                             window=_window())


def _window() -> tuple[int, int]:
    for fd in (1, 0, 2):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        if size.lines > 0 and size.columns > 0:
            return size.lines, size.columns
    return 24, 80
