"""What a release is made of: its version, the platforms it ships for and its file names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from release.errors import ReleaseError

PRODUCT = "gz-ia"
SUMS_NAME = "SHA256SUMS"
SIGNATURE_NAME = "SHA256SUMS.minisig"
MAN_PAGE_NAME = "gz-ia.1"  # beside each zipapp build/shiv.sh makes
PYTHON_VERSIONS = ("3.11", "3.12", "3.13")


@dataclass(frozen=True)
class Platform:
    """A target the zipapp ships for, and the wheel platform tags pip may pick for it.

    Names follow gz-ia's own ``gzia.update.platform.platform_tag()`` (``linux-amd64``): the
    updater picks its file by that name.
    """

    name: str
    wheel_tags: tuple[str, ...]
    sys_platform: str
    platform_system: str
    platform_machine: str


def _manylinux(arch: str) -> tuple[str, ...]:
    # Oldest glibc first: pip prefers the tags in the order given, so the most widely
    # usable wheel wins when a project publishes several.
    return (
        f"manylinux2014_{arch}",
        f"manylinux_2_17_{arch}",
        f"manylinux_2_28_{arch}",
    )


PLATFORMS: dict[str, Platform] = {
    p.name: p
    for p in (
        Platform("linux-amd64", _manylinux("x86_64"), "linux", "Linux", "x86_64"),
        Platform("linux-arm64", _manylinux("aarch64"), "linux", "Linux", "aarch64"),
        Platform(
            "darwin-arm64",
            ("macosx_11_0_arm64", "macosx_10_9_universal2"),
            "darwin",
            "Darwin",
            "arm64",
        ),
    )
}
DEFAULT_PLATFORMS = ("linux-amd64", "linux-arm64", "darwin-arm64")

# PEP 440 release or pre-release in canonical form: 1.2.3, 1.2.3rc1, 1.2.3a2, 1.2.3b1.
_VERSION = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)((a|b|rc)(0|[1-9]\d*))?")


def parse_version(text: str) -> str:
    """``X.Y.Z`` (or ``X.Y.Zrc1``), accepting a leading ``v`` as in a tag name."""
    version = text[1:] if text.startswith("v") else text
    if not _VERSION.fullmatch(version):
        raise ReleaseError(
            "INVALID_INPUT",
            f"invalid release version {text!r}: expected X.Y.Z or X.Y.Z(a|b|rc)N",
        )
    return version


def is_prerelease(version: str) -> bool:
    match = _VERSION.fullmatch(version)
    return match is not None and match.group(4) is not None


def tag_name(version: str) -> str:
    return f"v{version}"


def platform(name: str) -> Platform:
    try:
        return PLATFORMS[name]
    except KeyError:
        known = ", ".join(PLATFORMS)
        raise ReleaseError("INVALID_INPUT", f"unknown platform {name!r} (known: {known})") from None


def artifact_name(version: str, platform_name: str) -> str:
    return f"{PRODUCT}-{version}-{platform_name}.pyz"


def find_artifacts(release_dir: Path, version: str) -> list[Path]:
    """The release's zipapps in ``release_dir``, sorted by name; none is an error."""
    names = {artifact_name(version, p) for p in PLATFORMS}
    found = sorted(p for p in release_dir.glob(f"{PRODUCT}-{version}-*.pyz") if p.name in names)
    if not found:
        raise ReleaseError(
            "NOT_FOUND",
            f"no {PRODUCT} {version} artifacts in {release_dir}",
            hint=f"python3 release/release.py build --version {version}",
        )
    return found


def signed_files(release_dir: Path, version: str) -> list[Path]:
    """The files SHA256SUMS lists: the zipapps and the manual page (when the build made
    one: build/shiv.sh does)."""
    files = [*find_artifacts(release_dir, version)]
    if (release_dir / MAN_PAGE_NAME).is_file():
        files.append(release_dir / MAN_PAGE_NAME)
    return files


def release_files(release_dir: Path, version: str) -> list[Path]:
    """Every file a published release holds: the signed files, SHA256SUMS and its
    signature."""
    files = signed_files(release_dir, version)
    for name in (SUMS_NAME, SIGNATURE_NAME):
        path = release_dir / name
        if not path.is_file():
            raise ReleaseError(
                "NOT_FOUND",
                f"{name} is missing in {release_dir}",
                hint=f"python3 release/release.py sign --version {version}",
            )
        files.append(path)
    return files
