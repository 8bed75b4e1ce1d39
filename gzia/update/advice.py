"""What ``gz-ia update``, ``update --check`` and the update screen advise once they have an
answer, decided once for all of them: which version the verdict names, whether the channel
moves this machine off a yanked version to an older one (the one downgrade a channel makes:
:func:`gzia.update.select.decide_for_channel`), and the command that does it for this
install (:func:`gzia.update.installer.update_command`).

:func:`advice` gives plain data, which :mod:`gzia.views.update_check` puts into words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gzia.update.installer import update_command
from gzia.update.model import parse_version


def leaving_yank(result: Mapping[str, Any]) -> str | None:
    """The older version ``gz-ia update`` moves this machine to because its channel yanked
    the running one, or ``None``. ``result`` is ``update --check``'s or ``update``'s."""
    target = result.get("target")
    if result.get("yanked") is None or not isinstance(target, Mapping):
        return None
    return older_than(str(result["current"]), str(target["version"]))


def older_than(current: str, version: str) -> str | None:
    """``version`` when it is older than the running ``current`` (leaving a yank for it is a
    downgrade), else ``None``."""
    running, other = parse_version(current), parse_version(version)
    if running is None or other is None or other >= running:
        return None
    return version


def highest(current: str, remote: str) -> str:
    """The version "already at the latest" names: the running one when it is newer."""
    running, published = parse_version(current), parse_version(remote)
    if running is not None and published is not None and running > published:
        return current
    return remote


def advice(result: Mapping[str, Any]) -> dict[str, Any]:
    """For ``result`` (``update --check``'s, with ``latest``, or ``update``'s, with
    ``version``): ``leaving`` (:func:`leaving_yank`), ``command`` (the one that moves to the
    version the verdict names), ``highest`` (the version "already at the latest" names) and
    ``yank_command`` (the one ``YANKED_VERSION`` names, which moves to the channel's version
    for this machine; it may be older, so pip's and pipx's pin it)."""
    remote = str(result["latest"] if "latest" in result else result["version"])
    leaving = leaving_yank(result)
    target = result.get("target")
    channel_version = str(target["version"]) if isinstance(target, Mapping) else None
    moves_to = None if result.get("newer") else leaving  # upward: the plain upgrade
    return {"leaving": leaving, "command": update_command(moves_to),
            "highest": highest(str(result["current"]), remote),
            "yank_command": update_command(channel_version)}
