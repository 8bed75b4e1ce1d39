"""``gz-ia drivers``: every agent driver, whether its binary is on PATH, and how to install it."""

from __future__ import annotations

import os

from gzia.cli import output
from gzia.cli.command import command
from gzia.contract import WarningCode
from gzia.drivers.status import DriverStatus
from gzia.i18n import N_, gettext

_MSG_STATUS: dict[object, str] = {
    "available": N_("available"),
    "missing": N_("missing"),
}


@command("drivers", help="List agent drivers: path, version, install hint, MCP support and "
                          "how each reports its state (hooks or detector).")
def app() -> None:
    from gzia.cli.plugin_warnings import report_plugin_failure
    from gzia.drivers import load_catalog
    from gzia.drivers.status import PROBE_TIMEOUT, describe_all

    catalog = load_catalog()
    for failure in catalog.failures:
        report_plugin_failure(failure)
    statuses = describe_all(catalog.drivers, os.environ, timeout=PROBE_TIMEOUT)
    for status in statuses:
        if not status.answered:
            output.warn(WarningCode.DRIVER_NOT_ANSWERING,
                        N_("agent '{name}' did not answer '--version' within {seconds:g} s: its "
                           "version is unknown"),
                        name=status.name,
                        seconds=PROBE_TIMEOUT, details={"id": status.id, "seconds": PROBE_TIMEOUT})
    output.emit({"drivers": [s.to_json() for s in statuses]}, lambda: render(statuses))


def render(statuses: list[DriverStatus]) -> None:
    id_width = max([len(gettext("ID")), *(len(s.id) for s in statuses)]) + 2
    name_width = max([len(gettext("NAME")), *(len(s.name) for s in statuses)]) + 2
    state_width = max(len(gettext(_MSG_STATUS[k])) for k in ("available", "missing")) + 2
    method_width = max(len(gettext("STATE")), len("detector")) + 2
    output.line(
        f"{gettext('ID'):<{id_width}}{gettext('NAME'):<{name_width}}"
        f"{gettext('STATUS'):<{state_width}}{gettext('STATE'):<{method_width}}"
        f"{gettext('VERSION')}"
    )
    for status in statuses:
        state = gettext(N_("available") if status.available else N_("missing"))
        output.line(
            f"{status.id:<{id_width}}{status.name:<{name_width}}"
            f"{state:<{state_width}}{status.state_method:<{method_width}}{status.version or '-'}"
        )
    missing = [s for s in statuses if not s.available and s.install_hint]
    if missing:
        output.line()
        output.line(gettext("To install the missing agents:"))
    for status in missing:
        output.line(gettext("  {id}: {hint}", id=status.id, hint=status.install_hint))
