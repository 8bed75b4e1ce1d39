"""What ``gz-ia drivers`` reports about each driver: where it is, and which version."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from gzia.config import without_secrets
from gzia.drivers.base import Driver

PROBE_TIMEOUT = 3.0


@dataclass(frozen=True)
class DriverStatus:
    id: str
    name: str
    binary: str
    path: str | None
    version: str | None
    install_hint: str | None
    mcp_support: str

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
        }


def describe(
    driver: Driver, env: Mapping[str, str], timeout: float = PROBE_TIMEOUT
) -> DriverStatus:
    """Look the driver up on PATH and ask its version (a hanging agent costs ``timeout``).

    The version probe runs the agent: it gets the environment a session would, without
    gz-ia's own secrets.
    """
    env = without_secrets(env)
    path = driver.resolve(env)
    version = driver.probe_version(env, timeout) if path is not None else None
    return DriverStatus(
        id=driver.id,
        name=driver.display_name,
        binary=driver.binary,
        path=path,
        version=version,
        install_hint=driver.install_hint() or None,
        mcp_support=driver.mcp_support,
    )


def describe_all(
    drivers: Mapping[str, Driver], env: Mapping[str, str], timeout: float = PROBE_TIMEOUT
) -> list[DriverStatus]:
    """Every driver's status, probing versions in parallel so the wait is one timeout at most."""
    if not drivers:
        return []
    with ThreadPoolExecutor(max_workers=len(drivers)) as pool:
        futures = [pool.submit(describe, driver, env, timeout) for driver in drivers.values()]
        return [future.result() for future in futures]
