"""Agent drivers: what each agent CLI is called, how to find it and how to start it.

The public API lives here; see docs/drivers.md.
"""

from __future__ import annotations

from gzia.contract import Permission
from gzia.drivers.base import Driver, ExecutableDriver, LaunchRequest, LaunchSpec, driver_not_found
from gzia.drivers.registry import (
    PREFERRED_PROVIDERS,
    DriverCatalog,
    default_provider,
    get_driver,
    load_catalog,
    load_drivers,
    parse_permission,
)

__all__ = [
    "PREFERRED_PROVIDERS",
    "Driver",
    "DriverCatalog",
    "ExecutableDriver",
    "LaunchRequest",
    "LaunchSpec",
    "Permission",
    "default_provider",
    "driver_not_found",
    "get_driver",
    "load_catalog",
    "load_drivers",
    "parse_permission",
]
