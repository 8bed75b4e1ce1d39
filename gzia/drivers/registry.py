"""Which drivers exist: loaded from the ``gzia.drivers`` entry points, one by one.

Built-in drivers are registered through the same entry points as third-party ones. A
plugin that fails to load, or loads something that is not a driver, becomes a
:class:`DriverLoadFailure` (the CLI shows it as a warning); it never hides the others.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gzia.contract import DriverNotFoundError, InvalidInputError
from gzia.drivers.base import Driver, Permission

GROUP = "gzia.drivers"
PREFERRED_PROVIDERS = ("agy", "claude", "opencode", "pi-agent")
BUILTIN_ORDER = (*PREFERRED_PROVIDERS, "shell")
REQUIRED_MEMBERS = (
    "id",
    "display_name",
    "binary",
    "mcp_support",
    "install_hint",
    "resolve",
    "probe_version",
    "new_conversation_id",
    "launch",
)


@dataclass(frozen=True)
class DriverLoadFailure:
    name: str
    key: str
    params: dict[str, str]

    @property
    def message(self) -> str:
        from gzia.i18n import t

        return t(self.key, **self.params)


@dataclass
class DriverCatalog:
    drivers: dict[str, Driver] = field(default_factory=dict)
    failures: list[DriverLoadFailure] = field(default_factory=list)


def load_catalog() -> DriverCatalog:
    """Every driver that loads, in a stable order (built-ins first), and every failure."""
    loaded, failures = _load_entry_points()
    catalog = DriverCatalog(failures=failures)
    for name, obj in sorted(loaded.items(), key=lambda item: _order_key(item[0])):
        driver, failure = _as_driver(name, obj)
        if failure is not None:
            catalog.failures.append(failure)
        elif driver is not None:
            catalog.drivers[name] = driver
    return catalog


def load_drivers() -> dict[str, Driver]:
    return load_catalog().drivers


def get_driver(provider: str, drivers: Mapping[str, Driver] | None = None) -> Driver:
    """The driver called ``provider``; an unknown one is a usage error listing the valid ids."""
    available = load_drivers() if drivers is None else drivers
    driver = available.get(provider)
    if driver is None:
        valid = ", ".join(available)
        raise InvalidInputError(
            "drivers.unknown_provider",
            details={"provider": provider, "valid": list(available)},
            provider=provider,
            valid=valid,
        )
    return driver


def parse_permission(value: str) -> Permission:
    try:
        return Permission(value)
    except ValueError:
        valid = [p.value for p in Permission]
        raise InvalidInputError(
            "drivers.unknown_permission",
            details={"permission": value, "valid": valid},
            permission=value,
            valid=", ".join(valid),
        ) from None


def default_provider(
    configured: str | None,
    env: Mapping[str, str] | None = None,
    drivers: Mapping[str, Driver] | None = None,
) -> str:
    """``configured`` when set (it must name a driver), else the first agent found on PATH.

    ``shell`` is never picked on its own. With no agent on PATH this raises
    :class:`DriverNotFoundError` naming the ones looked for.
    """
    available = load_drivers() if drivers is None else drivers
    if configured:
        return get_driver(configured, available).id
    lookup_env = os.environ if env is None else env
    for provider in PREFERRED_PROVIDERS:
        driver = available.get(provider)
        if driver is not None and driver.resolve(lookup_env) is not None:
            return provider
    raise _none_available(available)


def _none_available(available: Mapping[str, Driver]) -> DriverNotFoundError:
    wanted = [p for p in PREFERRED_PROVIDERS if p in available]
    hints = {p: available[p].install_hint() for p in wanted}
    return DriverNotFoundError(
        "drivers.none_available",
        hint_key="drivers.none_available_hint",
        details={"providers": wanted, "install_hints": hints},
        providers=", ".join(wanted),
    )


def _order_key(name: str) -> tuple[int, str]:
    if name in BUILTIN_ORDER:
        return (BUILTIN_ORDER.index(name), "")
    return (len(BUILTIN_ORDER), name)


def _load_entry_points() -> tuple[dict[str, Any], list[DriverLoadFailure]]:
    """Through ``gzia.plugins`` when present (plugins directory, allowlist), else directly."""
    import importlib

    try:
        plugins = importlib.import_module("gzia.plugins")
    except ImportError:
        return _load_directly()
    result = plugins.load_group(GROUP)
    failures = [_failure_from_plugins(failure) for failure in result.failures]
    return dict(result.loaded), failures


def _failure_from_plugins(failure: Any) -> DriverLoadFailure:
    name = str(getattr(failure, "name", failure))
    detail = str(getattr(failure, "message", None) or getattr(failure, "error", failure))
    return DriverLoadFailure(name, "drivers.load_failed", {"name": name, "detail": detail})


def _load_directly() -> tuple[dict[str, Any], list[DriverLoadFailure]]:
    from importlib.metadata import entry_points

    loaded: dict[str, Any] = {}
    failures: list[DriverLoadFailure] = []
    for entry_point in _unique(entry_points(group=GROUP)):
        try:
            loaded[entry_point.name] = entry_point.load()
        except Exception as exc:  # one broken plugin must not hide the rest
            detail = f"{type(exc).__name__}: {exc}"
            params = {"name": entry_point.name, "detail": detail}
            failures.append(DriverLoadFailure(entry_point.name, "drivers.load_failed", params))
    return loaded, failures


def _unique(entry_points: Iterable[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for entry_point in entry_points:
        seen.setdefault(entry_point.name, entry_point)
    return list(seen.values())


def _as_driver(name: str, obj: Any) -> tuple[Driver | None, DriverLoadFailure | None]:
    """Accept a driver instance, or a class whose no-argument instance is a driver."""
    try:
        candidate = obj() if isinstance(obj, type) else obj
    except Exception as exc:  # a broken plugin becomes a warning
        params = {"name": name, "detail": f"{type(exc).__name__}: {exc}"}
        return None, DriverLoadFailure(name, "drivers.load_failed", params)
    missing = [member for member in REQUIRED_MEMBERS if not hasattr(candidate, member)]
    if missing:
        params = {"name": name, "missing": ", ".join(missing)}
        return None, DriverLoadFailure(name, "drivers.not_a_driver", params)
    if candidate.id != name:
        params = {"name": name, "driver_id": str(candidate.id)}
        return None, DriverLoadFailure(name, "drivers.id_mismatch", params)
    driver: Driver = candidate
    return driver, None
