"""Channel manifests for the release tooling: the verbs ``manifest``, ``promote``,
``rollout``, ``yank`` and ``rotate-key``.

Each verb reads the channel's published manifest (Nexus, else Forgejo), changes it, raises
its serial by one, gives it a fresh expiry, signs it with minisign and publishes it to both
registries (:mod:`release.channel_publish`). The document is the one gz-ia reads
(``gzia.update.manifest``); the tooling checks the new one with gz-ia's own verifier and
with the keys installed copies trust, so what it publishes is what they accept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from gzia.update.manifest import (
    ChannelManifest,
    ManifestProblem,
    Rollout,
    check_channel_name,
    parse_manifest,
    verify_manifest,
)
from gzia.update.minisign import PublicKey, SignatureProblem, parse_public_key
from release import artifacts, signing
from release.errors import ReleaseError

DEFAULT_EXPIRY_DAYS = 30


@dataclass(frozen=True)
class Change:
    """What a verb asks for; ``None`` leaves a field as it is."""

    verb: str
    channel: str
    version: str | None = None
    percentage: int | None = None
    minimum: str | None = None
    reason: str | None = None
    replacement: str | None = None  # yank: the channel's version when the yanked one was it
    add_keys: tuple[str, ...] = ()
    revoke_keys: tuple[str, ...] = ()
    expires_days: float = DEFAULT_EXPIRY_DAYS
    now: datetime = field(default_factory=lambda: datetime.now(UTC))


def channel_name(text: str) -> str:
    try:
        return check_channel_name(text)
    except Exception as exc:
        raise ReleaseError("INVALID_INPUT", f"invalid channel name {text!r}") from exc


def parse_current(data: bytes | None, channel: str) -> ChannelManifest | None:
    """The published manifest (already verified by its reader), or ``None``."""
    if data is None:
        return None
    try:
        return parse_manifest(data, channel)
    except ManifestProblem as problem:
        raise ReleaseError("INTEGRITY", f"the published {channel} manifest: {problem}") from None


def apply(change: Change, current: ChannelManifest | None) -> ChannelManifest:
    """The next manifest of the channel: ``current`` changed by ``change``."""
    base = current or _first(change)
    expires = change.now + timedelta(days=change.expires_days)
    edited = _EDITS[change.verb](change, base)
    if change.minimum is not None:
        edited = replace(edited, minimum_version=_version(change.minimum))
    next_one = replace(edited, serial=base.serial + 1 if current else 1, expires=expires,
                       source="", signer="")
    _refuse_yanked_target(next_one)
    return next_one


def _first(change: Change) -> ChannelManifest:
    if change.version is None:
        raise ReleaseError("NOT_FOUND", f"channel {change.channel} has no manifest yet",
                           hint="create it: release.py manifest --channel C --version X.Y.Z")
    return ChannelManifest(change.channel, 0, _version(change.version), change.now)


def _version(text: str) -> str:
    return artifacts.parse_version(text.removeprefix("v"))


def _manifest(change: Change, base: ChannelManifest) -> ChannelManifest:
    return base if change.version is None else replace(base, version=_version(change.version))


def _promote(change: Change, base: ChannelManifest) -> ChannelManifest:
    version = _version(_required(change.version, "--version"))
    if change.percentage is not None and change.percentage < 100:
        return replace(base, rollout=Rollout(version, change.percentage))
    return replace(base, version=version, rollout=None)


def _rollout(change: Change, base: ChannelManifest) -> ChannelManifest:
    percentage = _required(change.percentage, "--percentage")
    version = _version(change.version) if change.version else (
        base.rollout.version if base.rollout else None)
    if version is None:
        raise ReleaseError("INVALID_INPUT", "no rollout to change: name its --version")
    if percentage >= 100:
        return replace(base, version=version, rollout=None)
    return replace(base, rollout=Rollout(version, percentage))


def _yank(change: Change, base: ChannelManifest) -> ChannelManifest:
    version = _version(_required(change.version, "--version"))
    reason = " ".join(_required(change.reason, "--reason").split())
    edited = replace(base, yanked={**base.yanked, version: reason})
    if edited.rollout is not None and edited.rollout.version == version:
        edited = replace(edited, rollout=None)
    if edited.version == version:
        if change.replacement is None:
            raise ReleaseError("INVALID_INPUT",
                               f"{version} is the channel's version: name the one that replaces "
                               "it with --to")
        edited = replace(edited, version=_version(change.replacement))
    return edited


def _rotate(change: Change, base: ChannelManifest) -> ChannelManifest:
    for line in change.add_keys:
        _public_key(line)
    revoked = tuple(dict.fromkeys((*base.revoke_keys, *(k.upper() for k in change.revoke_keys))))
    added = [k for k in dict.fromkeys((*base.add_keys, *change.add_keys))
             if _public_key(k).id_hex not in revoked]
    return replace(base, add_keys=tuple(added), revoke_keys=revoked)


_EDITS = {"manifest": _manifest, "promote": _promote, "rollout": _rollout, "yank": _yank,
          "rotate-key": _rotate}


def _required(value: Any, flag: str) -> Any:
    if value is None:
        raise ReleaseError("INVALID_INPUT", f"{flag} is required")
    return value


def _public_key(line: str) -> PublicKey:
    try:
        return parse_public_key(line)
    except SignatureProblem:
        raise ReleaseError("INVALID_INPUT", f"not a minisign public key: {line[:20]}…") from None


def _refuse_yanked_target(manifest: ChannelManifest) -> None:
    if manifest.yank_reason(manifest.version) is not None:
        raise ReleaseError("SAFETY_BLOCK",
                           f"{manifest.version} is yanked: it cannot be the channel's version")


def document(manifest: ChannelManifest) -> bytes:
    """The bytes that are signed and published (ASCII JSON, keys in a stable order)."""
    data = manifest.to_json()
    for local in ("source", "signer"):
        data.pop(local)
    return (json.dumps(data, indent=2, ensure_ascii=True) + "\n").encode("ascii")


def trusted_by_clients(keys_dir_keys: list[PublicKey],
                       manifest: ChannelManifest) -> list[PublicKey]:
    """What installed copies trust once they read the previous manifests: the built-in keys
    and those added before, minus every revoked one."""
    keys = [*keys_dir_keys, *(parse_public_key(k) for k in manifest.add_keys)]
    return [k for k in keys if k.id_hex not in manifest.revoke_keys]


def sign_manifest(manifest: ChannelManifest, key: signing.SigningKey,
                  keys_dir_keys: list[PublicKey], previous: ChannelManifest | None,
                  env: Mapping[str, str]) -> tuple[bytes, bytes, str]:
    """The document, its signature and the signer's key id; the signer must be a key
    installed copies already trust (never one only this manifest adds or one revoked)."""
    data = document(manifest)
    stamp = signing.trusted_comment(env).replace(artifacts.SUMS_NAME, f"{manifest.channel}.json")
    clients = trusted_by_clients(keys_dir_keys, previous) if previous else keys_dir_keys
    clients = [k for k in clients if k.id_hex not in manifest.revoke_keys]
    signature, signer = signing.sign(data.decode("ascii"), key, stamp, clients)
    if signer not in clients:
        raise ReleaseError("INTEGRITY",
                           f"key {signer.id_hex} is not trusted by installed copies (not in "
                           "the keys directory nor added by an earlier manifest, or revoked)",
                           hint="sign with a trusted key; add a new key with rotate-key first")
    try:
        verify_manifest(data, signature.encode(), manifest.channel, clients,
                        now=datetime.now(UTC))
    except ManifestProblem as problem:
        raise ReleaseError("INTEGRITY", f"the new manifest would be refused: {problem}") from None
    return data, signature.encode(), signer.id_hex
