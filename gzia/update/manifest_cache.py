"""Where update keeps its state, and the channel manifest it cached there.

``manifest.json`` is the last verified manifest of the channel, for the commands that
must not go online: the minimum-version warning every command carries (gzia/cli/
release_notice.py) and ``doctor``. Reading it is one small file and ``json``: nothing of
the update machinery (signatures, versions, HTTP) is imported for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.config import paths
from gzia.contract import GzError

PRIVATE = 0o600


def update_state_dir() -> Path:
    return paths().state_dir / "update"


def manifest_file(folder: Path | None = None) -> Path:
    return (folder or update_state_dir()) / "manifest.json"


def save_cached_manifest(document: dict[str, Any], folder: Path | None = None) -> None:
    write_atomic(manifest_file(folder), (json.dumps(document, indent=2) + "\n").encode(),
                 PRIVATE)


def forget_cached_manifest() -> None:
    """The channel publishes no manifest any more: what the cache said no longer holds."""
    manifest_file().unlink(missing_ok=True)


def cached_manifest(folder: Path | None = None) -> dict[str, Any] | None:
    """The last verified manifest (as :meth:`ChannelManifest.to_json` wrote it), or ``None``."""
    try:
        document = json.loads(manifest_file(folder).read_text())
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def of_configured_channel(document: dict[str, Any]) -> bool:
    """Whether a cached manifest is of the channel the settings name now: after a change of
    ``update_channel`` the other channel's manifest says nothing of this machine until
    ``update`` (or ``--check``) caches the new one. Reads the settings: ask only when the
    cache would be acted on. With the configuration unreadable (said elsewhere) the cache,
    the last manifest verified here, stands."""
    from gzia.update.settings import UpdateSettings  # lazy: the settings, only when acted on

    try:
        channel = UpdateSettings.load().channel
    except GzError:
        return True
    return document.get("channel") == channel
