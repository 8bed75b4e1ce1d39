"""build/shiv.sh prints no warning of its own making."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.release_build
def test_the_build_does_not_warn_that_site_bin_already_exists(tmp_path: Path) -> None:
    """pip warned 'Target directory .../site/bin already exists' on every build: the
    dependencies' console scripts were still there when gz-ia itself was installed."""
    site = tmp_path / "site"
    (site / "bin").mkdir(parents=True)
    (site / "bin" / "typer").write_text("#!/build/venv/bin/python\n")  # as pip leaves it
    output = tmp_path / "gz-ia.pyz"
    env = {**os.environ, "PYTHON": sys.executable, "GZ_BUILD_OUTPUT": str(output),
           "GZ_BUILD_SITE_PACKAGES": str(site), "TMPDIR": str(tmp_path)}
    done = subprocess.run(["bash", str(REPO / "build" / "shiv.sh")], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "already exists" not in done.stderr
    with zipfile.ZipFile(output) as outer, outer.open("site-packages.zip") as member:
        names = zipfile.ZipFile(member).namelist()
    assert "site-packages/gzia/cli/__init__.py" in names
    assert not [name for name in names if name.startswith("site-packages/bin/")]
    assert list(tmp_path.glob("gz-ia-build.*")) == []  # its work directory is gone too
