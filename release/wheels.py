"""One site-packages directory for one platform and every supported CPython version.

pip downloads the locked wheels for each (platform, Python version) with ``--platform``,
``--python-version`` and ``--only-binary=:all:``; they are unpacked into one directory.
Pure wheels unpack to identical files; compiled modules carry their ABI tag in the file name
(``_cffi_backend.cpython-312-x86_64-linux-gnu.so``, ``_rust.abi3.so``), so each CPython finds
its own. Two wheels writing one path with different bytes is an error, never a silent overwrite.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from release.errors import ReleaseError

# Metadata that legitimately differs between the wheels of one project for several ABIs:
# RECORD, WHEEL, and the software bills of materials of PEP 770 (``.dist-info/sboms/``,
# which name the wheel's own build). The first wheel's copy is kept.
_PER_WHEEL_METADATA = ("RECORD", "WHEEL")


def _is_per_wheel_metadata(target: str) -> bool:
    path = PurePosixPath(target)
    in_sboms = len(path.parts) > 2 and path.parts[0].endswith(".dist-info") \
        and path.parts[1] == "sboms"
    return path.name in _PER_WHEEL_METADATA or in_sboms
PIP_DOWNLOAD_TIMEOUT = 900


@dataclass(frozen=True)
class TargetEnvironment:
    """The marker environment of one (platform, Python version) pair."""

    sys_platform: str
    platform_system: str
    platform_machine: str
    python_version: str

    def markers(self) -> dict[str, str]:
        return {
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "os_name": "posix",
            "sys_platform": self.sys_platform,
            "platform_system": self.platform_system,
            "platform_machine": self.platform_machine,
            "python_version": self.python_version,
            "python_full_version": f"{self.python_version}.0",
            "implementation_version": f"{self.python_version}.0",
        }


def logical_lines(text: str) -> list[str]:
    """Requirement lines with backslash continuations joined and comments dropped."""
    joined = text.replace("\\\r\n", " ").replace("\\\n", " ")
    lines = []
    for raw in joined.splitlines():
        line = " ".join(raw.split(" #", 1)[0].split())
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def requirements_for(lock_text: str, target: TargetEnvironment) -> str:
    """The lock's lines whose markers hold on ``target`` (pip would judge them by the host)."""
    from packaging.requirements import InvalidRequirement, Requirement

    kept = []
    for line in logical_lines(lock_text):
        if line.startswith("-"):
            kept.append(line)
            continue
        spec = line.split(" --", 1)[0]
        try:
            requirement = Requirement(spec)
        except InvalidRequirement as exc:
            raise ReleaseError("INVALID_INPUT", f"bad line in the lock file: {line!r}") from exc
        if requirement.marker is None or requirement.marker.evaluate(target.markers()):
            kept.append(line)
    return "\n".join(kept) + "\n"


def pip_download_argv(
    requirements: Path, dest: Path, wheel_tags: tuple[str, ...], python_version: str
) -> list[str]:
    platforms = [arg for tag in wheel_tags for arg in ("--platform", tag)]
    return [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--only-binary=:all:", "--no-deps", "--implementation", "cp",
        "--python-version", python_version, *platforms,
        "--dest", str(dest), "--requirement", str(requirements),
    ]  # fmt: skip


def download(argv: list[str]) -> None:
    try:
        result = subprocess.run(
            argv, capture_output=True, text=True, timeout=PIP_DOWNLOAD_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise ReleaseError("TIMEOUT", "pip download took too long") from None
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise ReleaseError("NETWORK", "pip download failed: " + " | ".join(tail))


def unpack(wheel: Path, site_packages: Path, owners: dict[str, tuple[str, str]]) -> None:
    """Extract ``wheel``; ``owners`` maps each written path to (wheel name, sha256)."""
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            target = _install_path(info.filename)
            if target is None:
                continue
            data = archive.read(info)
            digest = hashlib.sha256(data).hexdigest()
            previous = owners.get(target)
            if previous is not None and previous[1] != digest:
                if _is_per_wheel_metadata(target):
                    continue
                raise ReleaseError(
                    "CONFLICT",
                    f"{wheel.name} and {previous[0]} both provide {target} with different content",
                )
            owners[target] = (wheel.name, digest)
            path = site_packages / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            mode = (info.external_attr >> 16) & 0o777
            path.chmod(mode or 0o644)


def _install_path(name: str) -> str | None:
    """Where a wheel member lands in site-packages; ``None`` for scripts, headers and data."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts:
        raise ReleaseError("INTEGRITY", f"wheel member escapes site-packages: {name!r}")
    if path.parts[0].endswith(".data"):
        if len(path.parts) > 2 and path.parts[1] in ("purelib", "platlib"):
            return str(PurePosixPath(*path.parts[2:]))
        return None
    return str(path)


def stamp(lock_text: str, wheel_tags: tuple[str, ...], python_versions: tuple[str, ...]) -> str:
    """What a prepared site-packages depends on; equal stamps mean it can be reused."""
    basis = json.dumps([lock_text, wheel_tags, python_versions])
    return hashlib.sha256(basis.encode()).hexdigest()


def fill_site_packages(
    site_packages: Path,
    lock_text: str,
    environments: list[TargetEnvironment],
    wheel_tags: tuple[str, ...],
    work_dir: Path,
) -> list[str]:
    """Download and unpack the wheels of every environment; returns the wheels' names.

    The downloads run at once (each is a pip process that mostly waits on the index);
    the unpacking follows in the order of ``environments``, so the result does not depend
    on which download finished first.
    """
    wheel_dirs = []
    for environment in environments:
        wheels_dir = work_dir / f"wheels-{environment.python_version}"
        wheels_dir.mkdir()
        requirements = wheels_dir / "requirements.txt"
        requirements.write_text(requirements_for(lock_text, environment))
        wheel_dirs.append((wheels_dir, pip_download_argv(
            requirements, wheels_dir, wheel_tags, environment.python_version)))
    with ThreadPoolExecutor(max_workers=len(wheel_dirs) or 1) as pool:
        downloads = [pool.submit(download, argv) for _, argv in wheel_dirs]
    for finished in downloads:
        finished.result()  # the first failure, in the order of the environments
    owners: dict[str, tuple[str, str]] = {}
    wheel_names: set[str] = set()
    for wheels_dir, _ in wheel_dirs:
        for wheel in sorted(wheels_dir.glob("*.whl")):
            unpack(wheel, site_packages, owners)
            wheel_names.add(wheel.name)
        shutil.rmtree(wheels_dir)
    return sorted(wheel_names)


def prepare_site_packages(
    lock: Path,
    environments: list[TargetEnvironment],
    wheel_tags: tuple[str, ...],
    work_dir: Path,
) -> tuple[Path, list[str]]:
    """``work_dir/site-packages`` filled for every environment, and the wheels it holds.

    The directory is reused while the lock, the tags and the Python versions are unchanged.
    """
    lock_text = lock.read_text(encoding="utf-8")
    versions = tuple(e.python_version for e in environments)
    site_packages, stamp_file = work_dir / "site-packages", work_dir / "stamp.json"
    wanted = stamp(lock_text, wheel_tags, versions)
    if stamp_file.is_file() and site_packages.is_dir():
        recorded = json.loads(stamp_file.read_text())
        if recorded.get("stamp") == wanted:
            return site_packages, list(recorded["wheels"])
    shutil.rmtree(work_dir, ignore_errors=True)
    site_packages.mkdir(parents=True)
    names = fill_site_packages(site_packages, lock_text, environments, wheel_tags, work_dir)
    stamp_file.write_text(json.dumps({"stamp": wanted, "wheels": names}))
    return site_packages, names
