"""Verify: trusted keys, the signature over SHA256SUMS, and a file against its entry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gzia.contract import IntegrityError
from gzia.i18n import N_
from gzia.update.minisign import PublicKey, SignatureProblem, parse_public_key, parse_signature
from gzia.update.minisign import verify as verify_signature
from gzia.update.trust import Trust

_SUMS_LINE = re.compile(r"^(?P<hash>[0-9a-fA-F]{64}) [ *](?P<name>.+)$")


def builtin_keys() -> list[PublicKey]:
    """Keys shipped in the zipapp as ``gzia/update/keys/*.pub`` (none in a dev install)."""
    folder = resources.files("gzia.update").joinpath("keys")
    if not folder.is_dir():
        return []
    found = sorted((e for e in folder.iterdir() if e.name.endswith(".pub")), key=lambda e: e.name)
    return [parse_public_key(e.read_text()) for e in found]


def configured_keys(value: str) -> list[PublicKey]:
    """``GZ_UPDATE_PUBLIC_KEYS``: comma-separated key lines or paths of ``.pub`` files."""
    keys = []
    for entry in (e.strip() for e in value.split(",")):
        if not entry:
            continue
        path = Path(entry).expanduser()
        try:
            text = path.read_text() if path.is_file() else entry
            keys.append(parse_public_key(text))
        except (SignatureProblem, OSError) as exc:
            raise IntegrityError(N_("GZ_UPDATE_PUBLIC_KEYS: '{entry}' is neither a minisign public "
                                    "key nor a readable .pub file"),
                                 entry=_short(entry),
                                 hint_key=N_("set GZ_UPDATE_PUBLIC_KEYS to the release public key "
                                             "(the base64 line of minisign.pub, or the path of "
                                             "that file)")) from exc
    return keys


def _short(entry: str) -> str:
    return entry if len(entry) <= 24 or "/" in entry else entry[:12] + "…"


def base_keys(configured: str) -> list[PublicKey]:
    """The keys built in and those configured, before what manifests taught."""
    return builtin_keys() + configured_keys(configured)


def trusted_keys(configured: str) -> list[PublicKey]:
    """The base keys plus those added by channel manifests, minus every revoked one."""
    keys: list[PublicKey] = Trust.load().apply(base_keys(configured))
    if not keys:
        raise IntegrityError(N_("no trusted minisign public key: refusing to install an unverified "
                                "release"),
                             hint_key=N_("set GZ_UPDATE_PUBLIC_KEYS to the release public key (the "
                                         "base64 line of minisign.pub, or the path of that file)"))
    return keys


def verify_sums(sums: bytes, signature_text: bytes, keys: list[PublicKey]) -> dict[str, str]:
    """Check the signature over SHA256SUMS; returns ``{file name: sha256 hex}``."""
    try:
        signature = parse_signature(signature_text.decode("utf-8", errors="replace"))
        verify_signature(sums, signature, keys)
    except SignatureProblem as problem:
        raise IntegrityError(N_("SHA256SUMS signature rejected: {reason}"), reason=problem.message,
                             details={"reason": problem.reason_code}) from problem
    return parse_sums(sums).entries


@dataclass(frozen=True)
class Sums:
    """A parsed SHA256SUMS: ``{file name: sha256 hex}`` and the lines that are no entry."""

    entries: dict[str, str]
    bad_lines: tuple[int, ...]  # 1-based numbers of malformed or repeated lines


def parse_sums(sums: bytes) -> Sums:
    """``sha256sum`` lines (text `` `` or binary ``*`` marker, either case of hex).

    Blank lines are skipped; any other line that is not an entry, or names a file a second
    time, is counted in ``bad_lines``: the updater skips it, the release tooling refuses it.
    """
    entries: dict[str, str] = {}
    bad: list[int] = []
    for number, line in enumerate(sums.decode("utf-8", errors="replace").splitlines(), 1):
        match = _SUMS_LINE.match(line.strip())
        if match is not None and match["name"] not in entries:
            entries[match["name"]] = match["hash"].lower()
        elif line.strip():
            bad.append(number)
    return Sums(entries, tuple(bad))


def expected_hash(entries: dict[str, str], name: str, registry_sha256: str | None) -> str:
    digest = entries.get(name)
    if digest is None:
        raise IntegrityError(N_("{file} is not listed in SHA256SUMS"), file=name,
                             details={"file": name})
    if registry_sha256 is not None and registry_sha256.lower() != digest:
        raise IntegrityError(N_("the registry's sha256 of {file} differs from SHA256SUMS"),
                             file=name,
                             details={"file": name})
    return digest


def check_download(name: str, digest: str, expected: str, size: int,
                   expected_size: int | None) -> None:
    if expected_size is not None and size != expected_size:
        raise IntegrityError(N_("{file}: received {size} bytes, expected {expected}"), file=name,
                             size=size,
                             expected=expected_size,
                             details={"file": name, "size": size, "expected": expected_size})
    if digest != expected:
        raise IntegrityError(N_("{file}: sha256 does not match SHA256SUMS"), file=name, details={
            "file": name, "sha256": digest, "expected": expected})
