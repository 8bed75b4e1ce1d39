"""``gz-ia plugins``: what loaded, from where, and what failed and why."""

from __future__ import annotations

from gzia.cli import output
from gzia.cli.command import command
from gzia.config import paths
from gzia.i18n import gettext
from gzia.plugins import GROUPS, PluginFailure, PluginInfo, load_group


@command("plugins", help="List plugins that loaded and those that failed.")
def app() -> None:
    loaded: list[PluginInfo] = []
    failed: list[PluginFailure] = []
    for group in GROUPS:
        result = load_group(group)
        loaded.extend(result.infos.values())
        failed.extend(result.failures)
    dirs = [str(d) for d in paths().plugin_dirs]

    def human() -> None:
        output.line(gettext("GROUP           NAME          ORIGIN      DISTRIBUTION"))
        for info in loaded:
            output.line(f"{info.group:<15} {info.name:<13} {info.origin:<11} {info.distribution}")
        if failed:
            output.line(gettext("Failed:"))
            for failure in failed:
                output.line(f"  {failure.info.group} {failure.info.name}: {failure.error}")
        output.line(gettext("Plugins directories: {dirs}", dirs=", ".join(dirs)))

    data = {"plugins": [i.to_json() for i in loaded],
            "failed": [f.to_json() for f in failed], "plugin_dirs": dirs}
    output.emit(data, human)
