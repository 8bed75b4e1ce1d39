"""What ``gz-ia drivers`` reports about each driver: where it is, and which version."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gzia.contract import TimeoutFailure
from gzia.credentials import without_secrets
from gzia.drivers.base import Driver, state_method

PROBE_TIMEOUT = 3.0
PROBE_GRACE = 2.0
"""How long past ``PROBE_TIMEOUT`` the listing waits for a probe that does not keep its own
deadline (a third-party driver's, or a program that never got as far as ``exec``)."""


@dataclass(frozen=True)
class DriverStatus:
    id: str
    name: str
    binary: str
    path: str | None
    version: str | None
    install_hint: str | None
    mcp_support: str
    state_method: str = "detector"
    """How gz-ia learns the agent's state: ``hooks`` or ``detector`` (docs/sessions.md)."""
    answered: bool = True
    """False when the version probe outlived its deadline (``version`` is then None)."""

    @property
    def available(self) -> bool:
        return self.path is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "binary": self.binary,
            "path": self.path,
            "available": self.available,
            "version": self.version,
            "install_hint": self.install_hint,
            "mcp_support": self.mcp_support,
            "state_method": self.state_method,
        }


def describe_all(
    drivers: Mapping[str, Driver], env: Mapping[str, str], timeout: float = PROBE_TIMEOUT
) -> list[DriverStatus]:
    """Every driver's status: where its binary is, and the version it reports.

    The version probes run the agents (with the environment a session would give them,
    without gz-ia's own secrets), in parallel, each with a deadline of ``timeout``; the
    listing ends within ``timeout`` plus :data:`PROBE_GRACE`, whatever a probe does.

    A probe still running then is given up (its daemon thread cannot keep gz-ia from
    exiting) and its driver reported as not answering.
    """
    deadline = time.monotonic() + timeout + PROBE_GRACE
    probes = [_Probe(driver, without_secrets(env), timeout) for driver in drivers.values()]
    return [probe.status(deadline) for probe in probes]


class _Probe:
    """One driver described in a thread of its own."""

    def __init__(self, driver: Driver, env: Mapping[str, str], timeout: float) -> None:
        self._located = replace(_unlocated(driver), answered=False)
        self._status: DriverStatus | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(driver, env, timeout),
                                        name=f"probe-{driver.id}", daemon=True)
        self._thread.start()

    def _run(self, driver: Driver, env: Mapping[str, str], timeout: float) -> None:
        try:
            located = _located(driver, env)
            self._located = replace(located, answered=False)
            self._status = _probed(located, driver, env, timeout)
        except BaseException as exc:  # a driver's own failure: raised by ``status``
            self._error = exc

    def status(self, deadline: float) -> DriverStatus:
        self._thread.join(max(0.0, deadline - time.monotonic()))
        if self._error is not None:
            raise self._error
        return self._status or self._located


def _unlocated(driver: Driver) -> DriverStatus:
    return DriverStatus(id=driver.id, name=driver.display_name, binary=driver.binary,
                        path=None, version=None, install_hint=driver.install_hint() or None,
                        mcp_support=driver.mcp_support, state_method=state_method(driver))


def _located(driver: Driver, env: Mapping[str, str]) -> DriverStatus:
    return replace(_unlocated(driver), path=driver.resolve(env))


def _probed(located: DriverStatus, driver: Driver, env: Mapping[str, str],
            timeout: float) -> DriverStatus:
    if located.path is None:
        return located
    try:
        return replace(located, version=driver.probe_version(env, timeout))
    except TimeoutFailure:
        return replace(located, answered=False)
