"""What discovery finds: releases and their files, whatever the source."""

from __future__ import annotations

from dataclasses import dataclass, field

from packaging.version import InvalidVersion, Version

from gzia.i18n import N_
from gzia.update.errors import SourceFailure
from gzia.update.platform import platform_tag, pyz_asset_name

SUMS = "SHA256SUMS"
SIGNATURE = "SHA256SUMS.minisig"


@dataclass(frozen=True)
class ReleaseFile:
    name: str
    url: str
    size: int | None = None  # from the registry, when it says
    sha256: str | None = None  # from the registry (Nexus 3.68+), checked against SHA256SUMS


@dataclass(frozen=True)
class Want:
    """What the user asked for: a pinned version, prereleases, the platform tag."""

    version: Version | None = None
    pre: bool = False
    platform: str | None = None

    def allows(self, version: Version, *, flagged_pre: bool = False) -> bool:
        if self.version is not None:
            return version == self.version
        return self.pre or not (version.is_prerelease or flagged_pre)


@dataclass
class Release:
    version: Version
    label: str  # the version as published (directory or tag without 'v')
    source: str  # "nexus" or "forgejo"
    files: dict[str, ReleaseFile] = field(default_factory=dict)

    def pyz_name(self, platform: str | None = None) -> str:
        return pyz_asset_name(self.label, platform)

    def complete(self, platform: str | None = None) -> bool:
        return all(n in self.files for n in (self.pyz_name(platform), SUMS, SIGNATURE))

    def file(self, name: str) -> ReleaseFile:
        return self.files[name]


def parse_version(text: str) -> Version | None:
    label = text.strip()
    if label[:1] in ("v", "V"):
        label = label[1:]
    try:
        return Version(label)
    except InvalidVersion:
        return None


def nothing_found(want: Want) -> SourceFailure:
    platform = want.platform or platform_tag()
    if want.version is not None:
        return SourceFailure(N_("no complete release of version {version} for {platform}"),
                             reason_code="update.reason_version_missing", version=str(want.version),
                             platform=platform)
    return SourceFailure(N_("no complete gz-ia release for {platform}"),
                         reason_code="update.reason_no_release", platform=platform)
