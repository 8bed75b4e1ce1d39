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


def yanked(result: dict[str, Any]) -> Problem | None:
    """``YANKED_VERSION`` when the channel yanked the running version."""
    if result.get("yanked") is None:
        return None
    from gzia.update.installer import update_command

    version = result["target"]["version"]
    return Problem(WarningCode.YANKED_VERSION,
                   gettext("v{current} was yanked from channel {channel}: {reason}; "
                           "'{command}' moves to v{version}",
                           current=result["current"], channel=result["channel"],
                           reason=result["yanked"], version=version,
                           command=update_command(version)),
                   details={"version": result["current"], "reason": result["yanked"]})


def leaving_yank(result: dict[str, Any]) -> str | None:
    """The older version ``gz-ia update`` moves this machine to because its channel yanked
    the running one (the one downgrade a channel makes: :func:`gzia.update.select.
    decide_for_channel`), or ``None``. ``result`` is ``update --check``'s or ``update``'s;
    the command line and the update screen both decide with this."""
    if result.get("yanked") is None or result.get("target") is None:
        return None
    from gzia.update.model import parse_version

    version = result["target"]["version"]
    running, channel = parse_version(result["current"]), parse_version(version)
    if running is None or channel is None or channel >= running:
        return None
    return str(version)


def check_verdict(result: dict[str, Any]) -> str:
    """``update --check``'s last line: a newer version, the way off a yanked one, or none."""
    from gzia.update.installer import update_command

    if result["newer"]:
        return gettext("⚡ A new version is available (v{version}). Run '{command}' to install "
                       "it.",
                       version=result["latest"], command=update_command())
    version = leaving_yank(result)
    if version is not None:
        return _leave_yank_line(result, version, update_command(version))
    return gettext("✓ gz-ia is already at the latest version (v{version})",
                   version=highest(result["current"], result["latest"]))


def update_verdict(result: dict[str, Any]) -> str:
    """``update``'s line when it installed nothing (a flag such as ``--pre`` chose another
    version than the channel's): the way off a yanked version, or already at the latest."""
    version = leaving_yank(result)
    if version is not None:
        from gzia.update.installer import update_command

        return _leave_yank_line(result, version, update_command(version))
    return gettext("✓ gz-ia is already at the latest version (v{version})",
                   version=highest(result["current"], result["version"]))


def _leave_yank_line(result: dict[str, Any], version: str, command: str) -> str:
    return gettext("⚡ An update is available: v{version}, the version of channel {channel}, "
                   "replaces the yanked v{current} (an older version). Run '{command}' to "
                   "install it.",
                   version=version, channel=result["channel"], current=result["current"],
                   command=command)


def highest(current: str, remote: str) -> str:
    """The version "already at the latest" names: the running one when it is newer."""
    from gzia.update.model import parse_version

    running, published = parse_version(current), parse_version(remote)
    if running is not None and published is not None and running > published:
        return current
    return remote


def after_check(result: dict[str, Any]) -> list[Problem]:
    """What ``update --check`` warns of once it has its answer, in its order."""
    return [p for p in (manifest_missing(result), yanked(result)) if p is not None]


def after_update(result: dict[str, Any]) -> list[Problem]:
    """What ``update`` warns of once it has installed (or found nothing to install)."""
    return [p for p in (manifest_missing(result),) if p is not None]


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
