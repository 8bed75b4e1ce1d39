"""The platform tag of release file names: ``<os>-<arch>`` as in ``gz-ia-1.2.3-linux-amd64.pyz``."""

from __future__ import annotations

import platform
import sys

_OS = {"linux": "linux", "darwin": "darwin", "win32": "windows", "cygwin": "windows"}
_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}


def platform_tag(system: str | None = None, machine: str | None = None) -> str:
    """``linux-amd64``, ``darwin-arm64``, ``windows-amd64``...; unknown values pass through."""
    os_name = system or sys.platform
    arch = (machine or platform.machine()).lower()
    return f"{_OS.get(os_name, os_name)}-{_ARCH.get(arch, arch)}"


def pyz_asset_name(version: str, tag: str | None = None) -> str:
    return f"gz-ia-{version}-{tag or platform_tag()}.pyz"
