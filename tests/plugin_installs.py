"""Installing the test plugin packages for real, with pip, into throwaway directories."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PLUGINS = Path(__file__).resolve().parent / "plugins"


def pip_install_target(package: str, target: Path) -> Path:
    """``pip install --target`` one of tests/plugins/<package> (no network needed)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--target", str(target), str(PLUGINS / package)],
        check=True, capture_output=True, timeout=300,
    )
    return target
