"""Find the CPython 3.11+ interpreters of this machine, to run a built zipapp with each.

``python3.N`` on PATH may be a version-manager shim that fails when that version is not
selected, so every candidate is started once; pyenv's install directory is searched too.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

_NAME = re.compile(r"python3\.(1[1-9]|[2-9]\d)")
_PROBE = "import platform, sys; print(platform.python_implementation(), *sys.version_info[:2])"


def _candidates() -> list[Path]:
    directories = [Path(p) for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    roots = [Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")]
    roots += [d.parent for d in directories if d.name == "shims"]  # <root>/shims on PATH
    for root in dict.fromkeys(roots):
        directories += sorted(root.glob("versions/*/bin"))
    found = []
    for directory in directories:
        try:
            names = sorted(e.name for e in os.scandir(directory) if _NAME.fullmatch(e.name))
        except OSError:
            continue
        found += [directory / name for name in names]
    return found


def probe(path: Path) -> str | None:
    """``"3.12"`` when ``path`` runs as CPython, else ``None``."""
    try:
        done = subprocess.run(
            [str(path), "-c", _PROBE], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = done.stdout.split()
    if done.returncode != 0 or len(parts) != 3 or parts[0] != "CPython":
        return None
    return f"{parts[1]}.{parts[2]}"


def find_cpythons() -> dict[str, Path]:
    """One working interpreter per CPython 3.11+ minor version found on the machine."""
    found: dict[str, Path] = {}
    for path in _candidates():
        name_version = path.name.removeprefix("python")
        if name_version in found:
            continue
        if probe(path) == name_version:
            found[name_version] = path
    return dict(sorted(found.items(), key=lambda item: tuple(map(int, item[0].split(".")))))
