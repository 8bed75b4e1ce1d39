"""A Python older than 3.11 is refused at once, in one line, from the source tree and the pyz.

Run with the real older interpreters of this machine (pyenv's, or ``python3.N`` on PATH);
an absent one is skipped.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

PYENV = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
OLD_VERSIONS = ("3.8", "3.9", "3.10")
TOO_OLD = {
    "en": "Error: gz-ia needs Python 3.11 or newer, and {path} is Python {found}\n",
    "es": "Error: gz-ia necesita Python 3.11 o posterior, y {path} es Python {found}\n",
}


def old_python(version: str) -> Path:
    """An interpreter of ``version`` (``3.10``), or the test is skipped."""
    candidates = sorted(PYENV.glob(f"versions/{version}.*/bin/python{version}"))
    on_path = shutil.which(f"python{version}")
    for candidate in [*candidates, *([Path(on_path)] if on_path else [])]:
        done = subprocess.run([str(candidate), "-c", "import sys; print(sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=30, check=False)
        if done.returncode == 0:
            return candidate
    pytest.skip(f"no Python {version} on this machine")


def found_version(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True, timeout=30, check=True).stdout.strip()


def run(argv: list[str], lang: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env={**os.environ, "GZ_LANG": lang, **env},
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("version", OLD_VERSIONS)
@pytest.mark.parametrize("args", [["session", "list"], ["--version"], ["--json", "doctor"]])
def test_python_m_gzia_names_the_python_needed_and_the_one_found(
    version: str, args: list[str], lang: str, tmp_path: Path
) -> None:
    python = old_python(version)
    done = run([str(python), "-m", "gzia", *args], lang, tmp_path, PYTHONPATH=str(REPO))
    expected = TOO_OLD[lang].format(path=python, found=found_version(python))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", expected)


@pytest.mark.pyz
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("version", OLD_VERSIONS)
def test_the_pyz_names_the_python_needed_and_the_one_found(
    version: str, lang: str, pyz: Path, tmp_path: Path
) -> None:
    python = old_python(version)
    done = run([str(python), str(pyz), "session", "list"], lang, tmp_path)
    expected = TOO_OLD[lang].format(path=python, found=found_version(python))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", expected)


@pytest.mark.parametrize("path", [REPO / "gzia" / "preflight.py", REPO / "gzia" / "extraction.py",
                                  REPO / "build" / "pyz_entry.py"])
def test_what_runs_before_the_check_is_python_3_8_and_the_standard_library(path: Path) -> None:
    """Holds where no older interpreter is installed to run the tests above."""
    tree = ast.parse(path.read_text(encoding="utf-8"), feature_version=(3, 8))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    # the archive's own modules; gzia is imported once the Python is checked
    own = {"gzia_preflight", "gzia_extraction", "_bootstrap", "gzia"}
    assert imported - own <= sys.stdlib_module_names | {"__future__"}
