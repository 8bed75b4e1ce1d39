"""How ``update --check`` tells which version of its channel this machine gets, and why."""

from __future__ import annotations

from typing import Any

from gzia.i18n import gettext


def channel_lines(result: dict[str, Any]) -> list[str]:
    target, channel = result["target"], result["channel"]
    lines = [gettext("✧ Channel {channel} (manifest {serial} from {source}): this machine gets "
                     "v{version}: {why}",
                     channel=channel, serial=result["manifest"]["serial"],
                     source=result["manifest"]["source"], version=target["version"],
                     why=_why(target))]
    if result.get("below_minimum"):
        lines.append(gettext("! v{current} is below v{minimum}, the minimum version channel "
                             "{channel} supports",
                             current=result["current"], minimum=result["minimum_version"],
                             channel=channel))
    return lines


def _why(target: dict[str, Any]) -> str:
    reason = target["reason"]
    facts = {"percentage": target["percentage"], "bucket": target["bucket"],
             "rollout": target["rollout_version"]}
    if reason == "rollout":
        return gettext("in the {percentage}% rollout of v{rollout} (bucket {bucket})", **facts)
    if reason == "not_in_rollout":
        return gettext("not yet in the {percentage}% rollout of v{rollout} (bucket {bucket}; "
                       "--ignore-rollout takes it now)", **facts)
    if reason == "ignore_rollout":
        return gettext("the rollout's version (--ignore-rollout)")
    if reason == "rollout_yanked":
        return gettext("the channel's version (the rollout's v{rollout} was yanked)", **facts)
    return gettext("the channel's version")
