"""The minimum-version notice every command carries when the running gz-ia is below the
minimum its channel supports: one warning line in human mode, an entry of ``warnings`` in
JSON. It reads only the manifest ``update`` cached (never the network); a command that
reports the channel itself turns it off (``Output.release_notice``).

Every command pays for it, so it costs one read of a small file (``json``, no update
machinery): versions are parsed (``packaging``) only when the cache names a minimum, and
the command to advise (:func:`gzia.update.installer.update_command`) is found only when
the warning is given; so are the settings read, to say nothing from a manifest of another
channel than ``update_channel`` names now (:func:`of_configured_channel`).
Commands that add their own notices share this one hook (:func:`add_release_notice`):
keep what it does on every start that small."""

from __future__ import annotations

import gzia._version
from gzia.cli.output import Output
from gzia.contract import Problem, WarningCode
from gzia.i18n import gettext
from gzia.update.manifest_cache import cached_manifest, of_configured_channel


def add_release_notice(out: Output) -> None:
    if not out.release_notice:
        return
    out.release_notice = False  # once per invocation
    try:
        problem = _below_minimum()
    except Exception:
        return
    if problem is not None:
        out.add_warning(problem)


def _below_minimum() -> Problem | None:
    current = gzia._version.__version__  # read when asked: tests stand in for it
    cached = cached_manifest()
    minimum = cached.get("minimum_version") if cached else None
    if not isinstance(minimum, str) or cached is None:
        return None
    from gzia.update.model import parse_version  # lazy: packaging, only when a minimum is cached

    running, lowest = parse_version(current), parse_version(minimum)
    if running is None or lowest is None or running >= lowest or not of_configured_channel(cached):
        return None
    from gzia.update.installer import update_command  # lazy: only when it warns

    channel = str(cached.get("channel", ""))
    return Problem(WarningCode.BELOW_MINIMUM_VERSION,
                   gettext("gz-ia v{current} is below v{minimum}, the minimum version channel "
                           "{channel} supports: run '{command}'",
                           current=current, minimum=minimum, channel=channel,
                           command=update_command()),
                   details={"current": current, "minimum_version": minimum,
                            "channel": channel})
