"""SHA256SUMS: the checksum list that the signature covers (``sha256sum`` format)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from gzia.update.verify import parse_sums
from release.errors import ReleaseError


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def render(files: list[Path]) -> str:
    """One ``<sha256>  <name>`` line per file, sorted by name, as ``sha256sum`` prints them."""
    return "".join(f"{file_sha256(p)}  {p.name}\n" for p in sorted(files, key=lambda p: p.name))


def parse(text: str) -> dict[str, str]:
    """File name → sha256 hex, read by gz-ia's own parser; a malformed or repeated line,
    which the updater would skip, is an integrity error here."""
    parsed = parse_sums(text.encode())
    if parsed.bad_lines:
        number = parsed.bad_lines[0]
        line = text.splitlines()[number - 1]
        raise ReleaseError("INTEGRITY", f"SHA256SUMS line {number} is malformed: {line!r}")
    return parsed.entries


def check(release_dir: Path, text: str, names: list[str]) -> None:
    """The listed files exist in ``release_dir`` and hash as SHA256SUMS says, and no more."""
    entries = parse(text)
    if sorted(entries) != sorted(names):
        raise ReleaseError(
            "INTEGRITY",
            f"SHA256SUMS lists {sorted(entries)} but the release has {sorted(names)}",
        )
    for name, expected in entries.items():
        if file_sha256(release_dir / name) != expected:
            raise ReleaseError("INTEGRITY", f"{name} does not match its SHA256SUMS entry")
