"""What a run takes from the settings and the terminal, the same for every front end:
``gz-ia chat``, ``exec``, ``resume`` and the terminal UI's new session."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gzia.config import SOURCE_DEFAULT, SOURCE_POLICY, load_config
from gzia.contract import GzError
from gzia.drivers.base import kill_grace_of
from gzia.drivers.registry import get_driver
from gzia.sessions.background import BackgroundOptions
from gzia.supervisor.watchdog import Watchdog

if TYPE_CHECKING:
    from gzia.drivers.base import Driver
    from gzia.sessions.background import BackgroundOptions


def push_allowed(flag: bool) -> bool:
    """``--allow-push``, else the ``allow_push`` setting."""
    return _flag_or_setting(flag, "allow_push")


def direct_allowed(flag: bool) -> bool:
    """``--direct``, else the ``direct`` setting: outside a git work tree a session may run
    in the directory itself (:func:`gzia.sessions.workspace.refuse_unasked_direct`)."""
    return _flag_or_setting(flag, "direct")


def _flag_or_setting(flag: bool, key: str) -> bool:
    """The flag, else the setting; a value of the administrator's policy beats both."""
    value = load_config().value(key)
    return bool(value.value) if value.source == SOURCE_POLICY else flag or bool(value.value)


def sandbox_wanted(flag: bool) -> bool:
    """``--sandbox``, else the ``sandbox`` setting (docs/sandbox.md)."""
    return flag or bool(load_config().get("sandbox"))


def agent_kill_grace_ms(driver: Driver | None) -> int:
    """The grace before SIGKILL for ``driver``'s agent: the ``kill_grace_ms`` setting (100 ms
    by default, seed 000), or the longer one the driver declares while the setting is left
    at its default. A value set in the file, the environment or the built-in defaults is
    the user's (or the organisation's) choice, for every agent."""
    value = load_config().value("kill_grace_ms")
    configured = int(value.value)
    declared = kill_grace_of(driver) if driver is not None else None
    if declared is None or value.source != SOURCE_DEFAULT:
        return configured
    return max(configured, declared)


def agent_watchdog(watchdog: Watchdog, driver: Driver) -> Watchdog:
    """``watchdog`` with the grace ``driver`` declares (:func:`agent_kill_grace_ms`); as it
    is for a driver that declares none."""
    from dataclasses import replace

    if kill_grace_of(driver) is None:
        return watchdog
    return replace(watchdog, kill_grace_ms=agent_kill_grace_ms(driver))


def provider_kill_grace_s(provider: str) -> float:
    """:func:`agent_kill_grace_ms` of a record's provider, in seconds (``session kill``); a
    provider no longer installed gets the setting's."""
    try:
        driver = get_driver(provider) if provider else None
    except GzError:
        driver = None
    return agent_kill_grace_ms(driver) / 1000.0


def configured_watchdog(
    timeout_s: float | None = None, no_output_timeout_s: float | None = None
) -> Watchdog:
    return Watchdog(kill_grace_ms=int(load_config().get("kill_grace_ms")),
                    timeout_s=timeout_s, no_output_timeout_s=no_output_timeout_s)


def background_options(background: bool) -> BackgroundOptions | None:
    """What a ``-b`` run needs from config and the terminal; None without ``-b``."""
    if not background:
        return None

    return BackgroundOptions(log_max_bytes=log_max_bytes(), window=_window())


def log_max_bytes() -> int:
    """The cap of every run's output log (the ``session_log_max_bytes`` setting)."""
    return int(load_config().get("session_log_max_bytes"))


def _window() -> tuple[int, int]:
    for fd in (1, 0, 2):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        if size.lines > 0 and size.columns > 0:
            return size.lines, size.columns
    return 24, 80
