"""``gz-ia drivers``: every agent driver, whether its binary is on PATH, and how to install it."""

from __future__ import annotations

import os

import typer

from gzia.cli import output
from gzia.drivers.status import DriverStatus
from gzia.i18n import t

app = typer.Typer(add_completion=False)


@app.command(help="List agent drivers: path, version, install hint and MCP support.")
def drivers() -> None:
    from gzia.cli.plugin_warnings import report_plugin_failure
    from gzia.drivers import load_catalog
    from gzia.drivers.status import PROBE_TIMEOUT, describe_all

    catalog = load_catalog()
    for failure in catalog.failures:
        report_plugin_failure(failure)
    statuses = describe_all(catalog.drivers, os.environ, timeout=PROBE_TIMEOUT)
    for status in statuses:
        if not status.answered:
            output.warn("DRIVER_NOT_ANSWERING", "drivers.not_answering", name=status.name,
                        seconds=PROBE_TIMEOUT, details={"id": status.id, "seconds": PROBE_TIMEOUT})
    output.emit({"drivers": [s.to_json() for s in statuses]}, lambda: render(statuses))


def render(statuses: list[DriverStatus]) -> None:
    id_width = max([len(t("drivers.column_id")), *(len(s.id) for s in statuses)]) + 2
    name_width = max([len(t("drivers.column_name")), *(len(s.name) for s in statuses)]) + 2
    state_width = max(len(t(f"drivers.status_{k}")) for k in ("available", "missing")) + 2
    output.line(
        f"{t('drivers.column_id'):<{id_width}}{t('drivers.column_name'):<{name_width}}"
        f"{t('drivers.column_status'):<{state_width}}{t('drivers.column_version')}"
    )
    for status in statuses:
        state = t("drivers.status_available" if status.available else "drivers.status_missing")
        output.line(
            f"{status.id:<{id_width}}{status.name:<{name_width}}"
            f"{state:<{state_width}}{status.version or '-'}"
        )
    missing = [s for s in statuses if not s.available and s.install_hint]
    if missing:
        output.line()
        output.line(t("drivers.install_header"))
    for status in missing:
        output.line(t("drivers.listed_hint", id=status.id, hint=status.install_hint))
