"""Select: the release to install and whether installing it is an update at all."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from gzia.contract import SafetyBlockError
from gzia.i18n import N_
from gzia.update.model import Release, parse_version


@dataclass(frozen=True)
class Decision:
    release: Release
    current: str
    newer: bool  # the release is newer than what runs
    install: bool  # what the options make of it


def newest(releases: list[Release]) -> Release:
    """The highest version by PEP 440 ordering, never the server's order."""
    return max(releases, key=lambda r: r.version)


def current_version(text: str) -> Version | None:
    """``None`` for development builds (``dev``, ``none``, unparsable): anything is newer."""
    return parse_version(text)


def decide(releases: list[Release], current: str, *, pinned: bool = False,
           force: bool = False, allow_downgrade: bool = False) -> Decision:
    release = newest(releases)
    running = current_version(current)
    newer = running is None or release.version > running
    if running is not None and release.version < running:
        if pinned and not allow_downgrade:
            raise SafetyBlockError(N_("refusing to downgrade from v{current} to v{version}"),
                                   version=release.label,
                                   current=current,
                                   hint_key=N_("add --allow-downgrade to install an older version"),
                                   details={"version": release.label, "current": current})
        return Decision(release, current, False, install=pinned or (force and allow_downgrade))
    return Decision(release, current, newer, install=newer or force)


def decide_for_channel(releases: list[Release], current: str, *, moving_off_yank: bool,
                       force: bool = False) -> Decision:
    """The channel's version for this machine: installed when newer; when older only to
    leave a yanked version (the one downgrade a channel makes); never otherwise."""
    release = newest(releases)
    running = current_version(current)
    if running is None or release.version > running:
        return Decision(release, current, True, install=True)
    if release.version == running:
        return Decision(release, current, False, install=force and not moving_off_yank)
    return Decision(release, current, False, install=moving_off_yank)
