"""``gz-ia drivers``: every agent driver, whether its binary is on PATH, and how to install it."""

from __future__ import annotations

import os
from typing import Any

from gzia.cli import output
from gzia.cli.command import command
from gzia.contract import WarningCode
from gzia.drivers.status import DriverStatus
from gzia.i18n import N_, gettext

_MSG_STATUS: dict[object, str] = {
    "available": N_("available"),
    "missing": N_("missing"),
}


@command("drivers", help="List agent drivers: status, state (hooks or detector), version, "
                          "MCP support, path and install hint.")
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
    verdicts = policy_verdicts(statuses)
    entries = [{**s.to_json(), **verdicts[s.id]} if s.id in verdicts else s.to_json()
               for s in statuses]
    def human() -> None:
        render(statuses)
        render_policy(verdicts)

    output.emit({"drivers": entries}, human)


def policy_verdicts(statuses: list[DriverStatus]) -> dict[str, dict[str, Any]]:
    """``{id: {"policy": {...}}}`` for the drivers the administrator's policy names
    versions for (none without such a policy, so the listing stays as it was)."""
    from gzia.config import load_config
    from gzia.policy import verdict

    policy = load_config().policy
    found: dict[str, dict[str, Any]] = {}
    for status in statuses:
        if status.id in policy.agents:
            judged = verdict(status.id, status.version, policy)
            found[status.id] = {"policy": {"versions": judged.rule, "file": judged.file,
                                           "allowed": judged.allowed if status.available
                                           else None}}
    return found


def render_policy(verdicts: dict[str, dict[str, Any]]) -> None:
    if verdicts:
        output.line()
        output.line(gettext("Versions the administrator's policy allows:"))
    for driver_id, entry in verdicts.items():
        rule = entry["policy"]
        state = {True: N_("allowed"), False: N_("refused: sessions will not start"),
                 None: N_("not installed")}[rule["allowed"]]
        output.line(gettext("  {id}: {versions} ({state})", id=driver_id,
                            versions=rule["versions"], state=gettext(state)))


def render(statuses: list[DriverStatus]) -> None:
    """One row per driver: what the help promises (status, how it reports its state,
    version, MCP support, path), then how to install the missing ones."""
    headers = [gettext(h) for h in (N_("ID"), N_("NAME"), N_("STATUS"), N_("STATE"),
                                    N_("VERSION"), N_("MCP"), N_("PATH"))]
    rows = [[s.id, s.name, gettext(_MSG_STATUS["available" if s.available else "missing"]),
             s.state_method, s.version or "-", s.mcp_support if s.mcp_support != "none" else "-",
             s.path or "-"] for s in statuses]
    widths = [max(len(row[i]) for row in [headers, *rows]) + 2 for i in range(len(headers) - 1)]
    for row in [headers, *rows]:
        output.line("".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False))
                    + row[-1])
    missing = [s for s in statuses if not s.available and s.install_hint]
    if missing:
        output.line()
        output.line(gettext("To install the missing agents:"))
    for status in missing:
        output.line(gettext("  {id}: {hint}", id=status.id, hint=status.install_hint))
