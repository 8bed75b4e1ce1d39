"""What ``gz-ia update`` and the terminal UI's update screen say of the sources and the channel
manifest: the warnings (a source that failed, a manifest refused or missing, the running
version yanked) and the lines telling which version of the channel this machine gets, and why
(its rollout, its minimum version).

One wording for both: the command line adds the warnings to its envelope and prints the lines,
the update screen shows the same text.
"""

from __future__ import annotations

from typing import Any

from gzia.contract import Problem, WarningCode
from gzia.i18n import gettext


def source_failed(params: dict[str, str], source: str, reason_code: str) -> Problem:
    """A source failed and the next is tried (``NETWORK``); ``params`` are
    :func:`gzia.update.errors.source_failed_params`'s."""
    return Problem(WarningCode.NETWORK, gettext("{source} failed: {reason}; trying {next}",
                                                **params),
                   details={"source": source, "reason": reason_code})


def manifest_refused(source: str, reason: str, reason_code: str) -> Problem:
    """A source's manifest failed a check (``MANIFEST_REFUSED``); ``source`` is its name."""
    return Problem(WarningCode.MANIFEST_REFUSED,
                   gettext("{source}: the channel manifest was not used: {reason}",
                           source=source.capitalize(), reason=reason),
                   details={"source": source, "reason": reason_code})


def manifest_missing(result: dict[str, Any]) -> Problem | None:
    """``MANIFEST_MISSING`` when the check or update followed the manifest cached here."""
    manifest = result.get("manifest")
    if manifest is None or not manifest.get("cached"):
        return None
    facts = {"channel": result["channel"], "serial": manifest["serial"],
             "expires": manifest["expires"]}
    return Problem(WarningCode.MANIFEST_MISSING,
                   gettext("no source gave a usable manifest of channel {channel}: following "
                           "the one verified here before (serial {serial}, until {expires})",
                           **facts),
                   details=facts)


def yanked(result: dict[str, Any], advice: dict[str, Any]) -> Problem | None:
    """``YANKED_VERSION`` when the channel yanked the running version; ``advice`` is
    :func:`gzia.update.advice.advice`'s for ``result``."""
    if result.get("yanked") is None:
        return None
    return Problem(WarningCode.YANKED_VERSION,
                   gettext("v{current} was yanked from channel {channel}: {reason}; "
                           "'{command}' moves to v{version}",
                           current=result["current"], channel=result["channel"],
                           reason=result["yanked"], version=result["target"]["version"],
                           command=advice["yank_command"]),
                   details={"version": result["current"], "reason": result["yanked"]})


def after_check(result: dict[str, Any], advice: dict[str, Any]) -> list[Problem]:
    """What ``update --check`` warns of once it has its answer, in its order."""
    return [p for p in (manifest_missing(result), yanked(result, advice)) if p is not None]


def after_update(result: dict[str, Any]) -> list[Problem]:
    """What ``update`` warns of once it has installed (or found nothing to install)."""
    return [p for p in (manifest_missing(result),) if p is not None]


def check_verdict(result: dict[str, Any], advice: dict[str, Any]) -> str:
    """``update --check``'s last line: a newer version, the way off a yanked one (even to an
    older version), or none; ``advice`` is :func:`gzia.update.advice.advice`'s."""
    if result["newer"]:
        return gettext("⚡ A new version is available (v{version}). Run '{command}' to install "
                       "it.",
                       version=result["latest"], command=advice["command"])
    return update_verdict(result, advice)


def update_verdict(result: dict[str, Any], advice: dict[str, Any]) -> str:
    """The line when nothing newer is available, or ``update`` installed nothing (a flag such
    as ``--pre`` chose another version than the channel's): the way off a yanked version,
    or already at the latest."""
    if advice["leaving"] is not None:
        return gettext("⚡ An update is available: v{version}, the version of channel "
                       "{channel}, replaces the yanked v{current} (an older version). Run "
                       "'{command}' to install it.",
                       version=advice["leaving"], channel=result["channel"],
                       current=result["current"], command=advice["command"])
    return gettext("✓ gz-ia is already at the latest version (v{version})",
                   version=advice["highest"])


def channel_lines(result: dict[str, Any]) -> list[str]:
    """Which version of its channel this machine gets and why, and whether it runs below the
    channel's minimum; nothing when no manifest was used."""
    if result.get("manifest") is None:
        return []
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
