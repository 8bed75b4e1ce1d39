"""Plugins that cannot be offered become warnings on whatever command runs, never failures.

Also where the command groups are discovered (``gzia.commands`` entry points, built-in and
third-party): discovery imports nothing, and its failures (two plugins claiming one name)
are reported the same way by every command, however it is answered.
"""

from __future__ import annotations

from gzia.cli import output
from gzia.contract import WarningCode
from gzia.i18n import N_
from gzia.plugins import Discovery, PluginFailure, discover

COMMANDS_GROUP = "gzia.commands"


def discover_commands() -> Discovery:
    return reported(discover(COMMANDS_GROUP))


def reported(found: Discovery) -> Discovery:
    """``found``, after a warning for each plugin it could not offer."""
    for failure in found.failures:
        report_plugin_failure(failure)
    return found


def report_plugin_failure(failure: PluginFailure) -> None:
    output.warn(
        WarningCode.PLUGIN_FAILED,
        N_("plugin '{name}' from {distribution} failed to load: {error}"),
        name=failure.info.name,
        distribution=failure.info.distribution or failure.info.value, error=failure.error,
        details=failure.to_json(),
    )
