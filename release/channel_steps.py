"""The channel verbs end to end: read the published manifest, change it, sign it, publish it
to each registry (one failing does not stop the other; a re-run publishes again)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from gzia.contract import GzError, Problem
from gzia.update.manifest import ChannelManifest
from gzia.update.minisign import PublicKey, SignatureProblem, parse_signature
from gzia.update.minisign import verify as verify_signature
from release import channel_publish, channels, publish, signing
from release.errors import ReleaseError, as_problem

VERBS = ("manifest", "promote", "rollout", "yank", "rotate-key")


def add_channel_options(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument("--channel", required=True, help="stable, beta, ...")
    needs_version = verb in ("promote", "yank")
    parser.add_argument("--version", required=needs_version,
                        help="the release the verb is about")
    if verb in ("promote", "rollout"):
        parser.add_argument("--percentage", type=int, required=verb == "rollout",
                            help="share of machines (0-100) that get --version; 100: all")
    if verb == "yank":
        parser.add_argument("--reason", required=True, help="why, shown to every machine")
        parser.add_argument("--replace-with", dest="replacement",
                            help="the channel's version when the yanked one was it")
    if verb == "rotate-key":
        parser.add_argument("--add-key", action="append", default=[],
                            help="a minisign public key line (or .pub file) to trust")
        parser.add_argument("--revoke-key", action="append", default=[],
                            help="a key id (as minisign prints it) never to trust again")
    parser.add_argument("--minimum", help="the minimum supported version")
    parser.add_argument("--expires-days", type=float, default=channels.DEFAULT_EXPIRY_DAYS,
                        help="days until the manifest expires (default: 30)")
    parser.add_argument("--key-file", help="minisign secret key (unencrypted)")
    parser.add_argument("--to", default="nexus,forgejo",
                        help="nexus, forgejo or both (default: nexus,forgejo)")
    parser.add_argument("--commit", help="commit the channel tag points at, if Forgejo makes it")


def run_channel(args: argparse.Namespace, env: Mapping[str, str]) -> tuple[
        dict[str, object], list[Problem], list[Problem]]:
    channel = channels.channel_name(args.channel)
    targets = publish.parse_targets(args.to)
    keys = signing.load_trusted_keys(args.keys_dir)
    current = read_current(targets, channel, keys, env)
    manifest = channels.apply(_change(args, channel), current)
    report: dict[str, object] = {"channel": channel, "serial": manifest.serial,
                                 "manifest": json.loads(channels.document(manifest))}
    if args.dry_run and not (args.key_file or env.get(signing.KEY_ENV)
                             or env.get(signing.KEY_FILE_ENV)):
        return report, [], []
    with signing.signing_key(_path(args.key_file), env) as key:
        data, signature, signer = channels.sign_manifest(manifest, key, keys, current, env)
    report["signed_by"] = signer
    errors: list[Problem] = []
    for name in targets:
        try:
            report[name] = _publish_one(name, args, manifest, (data, signature), env)
        except (ReleaseError, GzError) as exc:
            errors.append(as_problem(exc))
            report[name] = {"error": errors[-1].to_json()}
    return report, errors, []


def _path(text: str | None) -> Path | None:
    return Path(text) if text else None


def _change(args: argparse.Namespace, channel: str) -> channels.Change:
    return channels.Change(
        args.step, channel, version=args.version, percentage=getattr(args, "percentage", None),
        minimum=args.minimum, reason=getattr(args, "reason", None),
        replacement=getattr(args, "replacement", None),
        add_keys=tuple(_key_line(k) for k in getattr(args, "add_key", [])),
        revoke_keys=tuple(getattr(args, "revoke_key", [])), expires_days=args.expires_days,
        now=datetime.now(UTC))


def _key_line(text: str) -> str:
    """A key line given as such, or the last line of a ``.pub`` file (checked first)."""
    path = Path(text)
    if not path.is_file():
        return text.strip()
    signing.read_public_key(path)
    return [line.strip() for line in path.read_text().splitlines() if line.strip()][-1]


def read_current(targets: tuple[str, ...], channel: str, keys: list[PublicKey],
                 env: Mapping[str, str]) -> ChannelManifest | None:
    """The published manifest, from Nexus, else Forgejo; it must be signed by a key of the
    keys directory (a forged one must not be built upon)."""
    found = None
    if "nexus" in targets:
        found = channel_publish.read_nexus(publish.nexus_target({}, env), channel)
    if found is None and "forgejo" in targets:
        found = channel_publish.read_forgejo(publish.forgejo_target({}, env), channel)
    if found is None:
        return None
    data, signature = found
    try:
        verify_signature(data, parse_signature(signature.decode("utf-8", "replace")), keys)
    except SignatureProblem as problem:
        raise ReleaseError("INTEGRITY", f"the published {channel} manifest: {problem}",
                           hint="its signer must be in the keys directory") from None
    return channels.parse_current(data, channel)


def _publish_one(name: str, args: argparse.Namespace, manifest: ChannelManifest,
                 signed: tuple[bytes, bytes], env: Mapping[str, str]) -> dict[str, object]:
    channel, (data, signature) = manifest.channel, signed
    if name == "nexus":
        return channel_publish.publish_nexus(publish.nexus_target({}, env), channel, data,
                                             signature, dry_run=args.dry_run)
    return channel_publish.publish_forgejo(publish.forgejo_target({}, env), channel,
                                           manifest.serial, data, signature,
                                           commit=args.commit, dry_run=args.dry_run)
