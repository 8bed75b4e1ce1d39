"""SHA256SUMS: the checksum list that the signature covers (``sha256sum`` format)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from release.errors import ReleaseError

_LINE = re.compile(r"([0-9a-f]{64}) [ *](\S+)")


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
    """File name → sha256 hex; a malformed or duplicated line is an integrity error."""
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _LINE.fullmatch(line)
        if match is None or match.group(2) in entries:
            raise ReleaseError("INTEGRITY", f"SHA256SUMS line {number} is malformed: {line!r}")
        entries[match.group(2)] = match.group(1)
    return entries


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
