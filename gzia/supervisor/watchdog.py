"""Watchdog defaults: the one place that says how long a run may last and how hard we stop it.

``kill_grace_ms`` is also the config key ``kill_grace_ms``: the time between SIGTERM and
SIGKILL to an agent's process group (100 ms, as in the original gz-ia's kill).
``timeout_s`` bounds a whole run and ``no_output_timeout_s`` a silence of a PTY run;
both are off (``None``) by default, since an interactive agent may rightly wait for hours.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_KILL_GRACE_MS = 100
POLL_INTERVAL_S = 0.002
"""How often liveness is probed while waiting for a process group to go away."""


@dataclass(frozen=True)
class Watchdog:
    kill_grace_ms: int = DEFAULT_KILL_GRACE_MS
    timeout_s: float | None = None
    no_output_timeout_s: float | None = None

    @property
    def kill_grace_s(self) -> float:
        return self.kill_grace_ms / 1000.0


DEFAULT_WATCHDOG = Watchdog()
