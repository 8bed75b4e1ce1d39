"""Which version of its channel this machine gets, and why.

A machine is in a staged rollout when its bucket (``sha256("<machine id>:<version>")``,
0-99) is below the rollout's percentage: the answer is the same on every run, and a
machine in at 10% stays in at 50%.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from gzia.update.manifest import ChannelManifest
from gzia.update.model import parse_version

CHANNEL = "channel"  # the channel's version; no rollout
ROLLOUT = "rollout"  # in the rollout
NOT_IN_ROLLOUT = "not_in_rollout"  # a rollout this machine is not in yet
IGNORE_ROLLOUT = "ignore_rollout"  # --ignore-rollout
ROLLOUT_YANKED = "rollout_yanked"  # the rollout's version is yanked: the channel's version


def bucket(machine: str, version: str) -> int:
    digest = hashlib.sha256(f"{machine}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 100


@dataclass(frozen=True)
class Plan:
    version: str  # what this machine gets
    reason: str
    bucket: int | None = None
    percentage: int | None = None
    rollout_version: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "reason": self.reason, "bucket": self.bucket,
                "percentage": self.percentage, "rollout_version": self.rollout_version}


def plan_for(manifest: ChannelManifest, machine: str, *, ignore_rollout: bool = False) -> Plan:
    rollout = manifest.rollout
    if rollout is None or _not_newer(rollout.version, manifest.version):
        return Plan(manifest.version, CHANNEL)
    if manifest.yank_reason(rollout.version) is not None:
        return Plan(manifest.version, ROLLOUT_YANKED, rollout_version=rollout.version)
    mine = bucket(machine, rollout.version)
    if ignore_rollout:
        version, reason = rollout.version, IGNORE_ROLLOUT
    elif mine < rollout.percentage:
        version, reason = rollout.version, ROLLOUT
    else:
        version, reason = manifest.version, NOT_IN_ROLLOUT
    return Plan(version, reason, mine, rollout.percentage, rollout.version)


def _not_newer(candidate: str, current: str) -> bool:
    first, second = parse_version(candidate), parse_version(current)
    return first is None or second is None or first <= second
