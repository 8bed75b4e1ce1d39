"""The update channel as ``update`` and ``update --check`` see it: its verified manifest
(what it teaches about keys is kept), the cache for offline commands, and this machine's
plan. No manifest anywhere leaves everything as it was before manifests existed, except on
a machine that verified one before: it keeps following that one until it expires (a
manifest briefly missing, or stripped on the way, must not move a pinned fleet)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from gzia.contract import SafetyBlockError
from gzia.i18n import N_
from gzia.update import manifest_cache, trust
from gzia.update.manifest import (
    ChannelManifest,
    Fetch,
    ManifestProblem,
    Report,
    fetch_channel_manifest,
    parse_manifest,
)
from gzia.update.minisign import key_id_text
from gzia.update.rollout import Plan, plan_for

if TYPE_CHECKING:
    import httpx

    from gzia.update.sources import Source


@dataclass(frozen=True)
class ChannelView:
    channel: str
    manifest: ChannelManifest | None = None
    plan: Plan | None = None
    yanked: str | None = None  # why the running version was yanked
    below_minimum: bool = False
    cached: bool = False  # no source gave a usable manifest: the one verified here before

    def fields(self) -> dict[str, Any]:
        """What ``update`` adds to its result: nothing without a manifest (the output stays
        what it was before channels existed)."""
        return {} if self.manifest is None else self.to_json()

    def to_json(self) -> dict[str, Any]:
        manifest = self.manifest
        return {"channel": self.channel,
                "manifest": None if manifest is None else {
                    "source": manifest.source, "serial": manifest.serial,
                    "version": manifest.version, "signer": manifest.signer,
                    "expires": manifest.to_json()["expires"], "cached": self.cached},
                "target": None if self.plan is None else self.plan.to_json(),
                "yanked": self.yanked,
                "minimum_version": None if manifest is None else manifest.minimum_version,
                "below_minimum": self.below_minimum}

    def refuse_yanked(self, version: str) -> None:
        """A yanked version is never installed, whatever the flags."""
        reason = self.manifest.yank_reason(version) if self.manifest is not None else None
        if reason is not None:
            raise SafetyBlockError(N_("v{version} was yanked from channel {channel}: {reason}"),
                                   version=version, channel=self.channel, reason=reason,
                                   hint_key=N_("'gz-ia update --check' shows the version this "
                                               "machine should run"),
                                   details={"version": version, "channel": self.channel,
                                            "reason": reason})


def read_channel(client: httpx.Client, sources: list[Source], channel: str, current: str, *,
                 base_keys: list[Any], ignore_rollout: bool = False,
                 on_problem: Report | None = None) -> ChannelView:
    """Fetch and verify the channel's manifest, learn from it, and plan this machine's
    version. Problems reach ``on_problem``; without a usable manifest the view is empty."""
    learned = trust.Trust.load()
    problems: list[Any] = []

    def report(source: Source, failure: Any) -> None:
        problems.append(failure)
        if on_problem is not None and isinstance(failure, ManifestProblem):
            on_problem(source, failure)  # a source that cannot be reached: said for releases

    fetch = Fetch(channel, learned.apply(base_keys), datetime.now(UTC),
                  learned.serials.get(channel))
    manifest = fetch_channel_manifest(client, sources, fetch, report)
    cached = manifest is None
    if manifest is None:
        manifest = still_cached(fetch)
        if manifest is None:
            if not problems:  # nothing published: what the cache said no longer holds
                manifest_cache.forget_cached_manifest()
            return ChannelView(channel)
    else:
        if learned.learn(channel, manifest.serial, manifest.add_keys, manifest.revoke_keys):
            learned.save()
        manifest_cache.save_cached_manifest(manifest.to_json())
    machine = trust.machine_id() if manifest.rollout is not None else ""
    return ChannelView(channel, manifest, plan_for(manifest, machine,
                                                   ignore_rollout=ignore_rollout),
                       manifest.yank_reason(current), manifest.below_minimum(current), cached)


def still_cached(fetch: Fetch) -> ChannelManifest | None:
    """The manifest this machine verified before, while it still holds: of this channel,
    not expired, not older than the newest serial seen, its signer still trusted."""
    document = manifest_cache.cached_manifest()
    if document is None:
        return None
    try:
        manifest = parse_manifest(json.dumps(document).encode(), fetch.channel)
    except ManifestProblem:
        return None
    signer = str(document.get("signer", ""))
    trusted = {key_id_text(key.key_id) for key in fetch.keys}
    if manifest.expires <= fetch.now or signer not in trusted or (
            fetch.seen_serial is not None and manifest.serial < fetch.seen_serial):
        return None
    return replace(manifest, source=str(document.get("source", "")), signer=signer)
