"""The dependencies build/shiv.sh packs: the locked wheels of every CPython a release supports.

Usage: python build/site_packages.py <lock> <work dir> <destination>

The same site-packages a release build makes for this machine's platform
(release.wheels.prepare_site_packages): one directory where each compiled dependency sits
once per ABI, so the zipapp runs on CPython 3.11, 3.12 and 3.13 alike, whichever one built
it. It is prepared in ``<work dir>/<platform>`` (reused while the lock is unchanged; builds
running at once take turns) and copied to ``<destination>``.

Exit status 3, with nothing written, when this machine's platform is not one a release
ships for: build/shiv.sh then installs the dependencies for the building interpreter alone.
"""

from __future__ import annotations

import fcntl
import shutil
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the repository, for ``release``

from release import artifacts, build  # noqa: E402
from release.errors import ReleaseError  # noqa: E402
from release.wheels import prepare_site_packages  # noqa: E402

NOT_A_RELEASE_PLATFORM = 3


def copy_site_packages(lock: Path, work_dir: Path, destination: Path) -> bool:
    name = build.host_platform()
    if name is None:
        return False
    platform = artifacts.platform(name)
    work_dir.mkdir(parents=True, exist_ok=True)
    with (work_dir / f"{name}.lock").open("w") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        site_packages, _ = prepare_site_packages(
            lock, build.environments(platform), platform.wheel_tags, work_dir / name)
        shutil.copytree(site_packages, destination, symlinks=True)
    return True


def main(argv: list[str]) -> int:
    lock, work_dir, destination = (Path(arg) for arg in argv)
    try:
        copied = copy_site_packages(lock, work_dir, destination)
    except ReleaseError as exc:
        print(f"build/site_packages.py: {exc}", file=sys.stderr)
        return 1
    return 0 if copied else NOT_A_RELEASE_PLATFORM


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
