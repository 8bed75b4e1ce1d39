"""Which drivers exist: loaded from the ``gzia.drivers`` entry points, one by one.

Built-in drivers are registered through the same entry points as third-party ones. A
plugin that fails to load, or loads something that is not a driver, becomes a
:class:`gzia.plugins.PluginFailure` (the CLI shows it as a warning); it never hides the others.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gzia.contract import DriverNotFoundError, InvalidInputError, Permission
from gzia.drivers.base import Driver, is_agent
from gzia.i18n import N_, gettext
from gzia.plugins import PluginFailure, load_group
from gzia.setting_values import bad_value, setting_for

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


@dataclass
class DriverCatalog:
    drivers: dict[str, Driver] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)


def load_catalog(environ: Mapping[str, str] | None = None) -> DriverCatalog:
    """Every driver that loads, in a stable order (built-ins first), and every failure."""
    result = load_group(GROUP, environ)
    catalog = DriverCatalog(failures=list(result.failures))
    for name, obj in sorted(result.loaded.items(), key=lambda item: _order_key(item[0])):
        driver, problem = _as_driver(name, obj)
        if driver is not None:
            catalog.drivers[name] = driver
        else:
            catalog.failures.append(PluginFailure(result.infos[name], problem))
    return catalog


def load_drivers() -> dict[str, Driver]:
    return load_catalog().drivers


def agent_names(drivers: Mapping[str, Driver] | None = None) -> list[str]:
    """The ids of the drivers that run agents (:func:`is_agent`), in the catalogue's order:
    the built-in ones, then those of plugins."""
    available = load_drivers() if drivers is None else drivers
    return [name for name, driver in available.items() if is_agent(driver)]


def get_driver(provider: str, drivers: Mapping[str, Driver] | None = None) -> Driver:
    """The driver called ``provider``.

    An unknown one is a usage error listing the valid ids; one whose plugin failed to load
    is ``DRIVER_NOT_FOUND`` naming the failure.
    """
    catalog = load_catalog() if drivers is None else DriverCatalog(dict(drivers))
    driver = catalog.drivers.get(provider)
    if driver is not None:
        return driver
    for failure in catalog.failures:
        if failure.info.name == provider:
            raise DriverNotFoundError(
                N_("driver '{provider}' could not be loaded: {error}"),
                details={"provider": provider, "error": failure.error,
                         "distribution": failure.info.distribution},
                provider=provider,
                error=failure.error,
            )
    raise InvalidInputError(
        N_("unknown agent provider: '{provider}' (valid: {valid})"),
        details={"provider": provider, "valid": list(catalog.drivers)},
        provider=provider,
        valid=", ".join(catalog.drivers),
    )


def checked_provider_setting(name: str, origin: str | None,
                             catalog: DriverCatalog | None = None) -> str:
    """``name`` as a ``default_provider`` value: a driver that exists (loaded, or a plugin
    that failed to load, which using it reports), else a settings error naming ``origin``."""
    known = catalog if catalog is not None else load_catalog()
    names = [*known.drivers, *(f.info.name for f in known.failures)]
    if name not in names:
        raise bad_value(setting_for("default_provider"), name, origin=origin,
                        expected=gettext("one of {choices}", choices=", ".join(names)))
    return name


def parse_permission(value: str) -> Permission:
    try:
        return Permission(value)
    except ValueError:
        valid = [p.value for p in Permission]
        raise InvalidInputError(
            N_("unknown permission level: '{permission}' (valid: {valid})"),
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
        N_("no agent found on PATH (looked for: {providers})."),
        hint_key=N_("install one (see 'gz-ia drivers'), or use '--provider shell'"),
        details={"providers": wanted, "install_hints": hints},
        providers=", ".join(wanted),
    )


def _order_key(name: str) -> tuple[int, str]:
    if name in BUILTIN_ORDER:
        return (BUILTIN_ORDER.index(name), "")
    return (len(BUILTIN_ORDER), name)


def _as_driver(name: str, obj: Any) -> tuple[Driver | None, str]:
    """Accept a driver instance, or a class whose no-argument instance is a driver.

    Otherwise return why not (the text of the plugin failure).
    """

    try:
        candidate = obj() if isinstance(obj, type) else obj
    except Exception as exc:  # a broken plugin becomes a warning
        return None, f"{type(exc).__name__}: {exc}"
    missing = [member for member in REQUIRED_MEMBERS if not hasattr(candidate, member)]
    if missing:
        return None, gettext("'{name}' does not provide a driver (missing: {missing})", name=name,
                             missing=", ".join(missing))
    if candidate.id != name:
        return None, gettext("entry point '{name}' provides a driver whose id is '{driver_id}'",
                             name=name, driver_id=str(candidate.id))
    driver: Driver = candidate
    return driver, ""
