"""Where the zipapp extracts its dependencies, and which extractions it removes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gzia.config import Paths
from gzia.extraction import extraction_root
from gzia.stale_builds import remove_stale
from tests.update.test_apply import hold_in_another_process


@pytest.mark.parametrize("environ", [
    {"HOME": "/home/u"},
    {"HOME": "/home/u", "XDG_CACHE_HOME": "/var/cache/u"},
    {"HOME": "/home/u", "XDG_CACHE_HOME": "  "},
    {"HOME": "/home/u", "GZ_CACHE_DIR": "~/gz-cache"},
])
def test_the_root_is_the_cache_dir_gz_ia_config_path_prints(
    environ: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry cannot import platformdirs yet: its own rule gives the same directory."""
    for name in ("HOME", "XDG_CACHE_HOME", "GZ_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert Path(extraction_root(environ)) == Paths(environ).cache_dir / "shiv"


def test_shiv_root_wins_and_may_name_a_variable() -> None:
    assert extraction_root({"SHIV_ROOT": "/opt/x", "XDG_CACHE_HOME": "/c"}) == "/opt/x"
    assert extraction_root({"SHIV_ROOT": "$MINE", "MINE": "/opt/y"}) == "/opt/y"


def fake_extraction(root: Path, name: str, started: float | None) -> Path:
    path = root / name
    (path / "site-packages" / "gzia").mkdir(parents=True)
    (path / "site-packages" / "gzia" / "__init__.py").write_text("")
    if started is not None:
        (path / ".in-use").touch()
        os.utime(path / ".in-use", (started, started))
    return path


def test_stale_builds_go_the_current_the_latest_other_and_the_held_ones_stay(
    tmp_path: Path
) -> None:
    root = tmp_path / "shiv"
    current = fake_extraction(root, "gz-ia_new", 400)
    fake_extraction(root, "gz-ia_previous", 300)
    fake_extraction(root, "gz-ia.pyz_old", 200)
    held = fake_extraction(root, "gz-ia_held", 100)
    fake_extraction(root, "gz-ia_unmarked", None)  # an earlier build's: no mark, kept
    (root / "other-app_123" / "site-packages").mkdir(parents=True)  # not gz-ia's
    holder = hold_in_another_process(held)
    try:
        removed = remove_stale(str(root), str(current))
    finally:
        holder.stdin.close()  # type: ignore[union-attr]
        holder.wait(timeout=30)
    assert removed == [str(root / "gz-ia.pyz_old")]
    assert sorted(p.name for p in root.iterdir()) == [
        "gz-ia_held", "gz-ia_new", "gz-ia_previous", "gz-ia_unmarked", "other-app_123"]


@pytest.mark.pyz
def test_the_pyz_extracts_under_the_cache_dir_and_removes_a_stale_build(
    pyz: Path, tmp_path: Path
) -> None:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gz-ia" / "shiv"
    fake_extraction(cache, "gz-ia.pyz_older", 100)
    fake_extraction(cache, "gz-ia.pyz_old", 200)
    env = {**os.environ, "SHIV_ROOT": ""}
    done = subprocess.run([sys.executable, str(pyz), "--version"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(pyz) as archive:
        build_id = json.loads(archive.read("environment.json"))["build_id"]
    assert sorted(p.name for p in cache.iterdir()) == sorted([
        f".gz-ia_{build_id}_lock", "gz-ia.pyz_old", f"gz-ia_{build_id}"])
    assert (cache / f"gz-ia_{build_id}" / ".in-use").is_file()
    assert not (Path.home() / ".shiv").exists()


@pytest.mark.pyz
def test_one_build_is_extracted_once_whatever_its_files_are_called(
    pyz: Path, tmp_path: Path
) -> None:
    """The demo's dist/gz-ia.pyz, the installed ~/.local/bin/gz-ia and the copy an update
    keeps for a rollback are one build: one extraction (about 100 MB), not one per name."""
    installed = tmp_path / "bin" / "gz-ia"
    installed.parent.mkdir()
    shutil.copy2(pyz, installed)
    env = {**os.environ, "SHIV_ROOT": ""}
    for path in (pyz, installed, installed.with_name(".gz-ia.previous")):
        if not path.exists():
            shutil.copy2(pyz, path)
        done = subprocess.run([sys.executable, str(path), "--version"], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "gz-ia" / "shiv"
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [f"gz-ia_{build_id_of(pyz)}"]


@pytest.mark.pyz
def test_the_zipapp_directory_holds_a_few_entries_and_the_dependencies_one(pyz: Path) -> None:
    """Python reads a zipapp's whole directory on every start (docs/performance.md): the
    dependencies, read only by a build's first run, are one member."""
    with zipfile.ZipFile(pyz) as archive:
        names = archive.namelist()
        with archive.open("site-packages.zip") as member, zipfile.ZipFile(member) as inner:
            assert "site-packages/gzia/cli/__init__.py" in inner.namelist()
    assert len(names) < 12, names
    assert not [name for name in names if name.startswith("site-packages/")]


@pytest.mark.pyz
def test_a_shiv_override_runs_shivs_bootstrap_on_the_dependencies_extracted(
    pyz: Path, tmp_path: Path
) -> None:
    """The zipapp's own gz-ia runs (its commit), not one the interpreter finds elsewhere."""
    own = subprocess.run([sys.executable, str(pyz), "--version"], capture_output=True,
                         text=True, timeout=300, check=True).stdout
    env = {**os.environ, "SHIV_ROOT": str(tmp_path / "root"), "SHIV_ENTRY_POINT": "gzia.cli:main"}
    done = subprocess.run([sys.executable, str(pyz), "--version"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == own
    assert (tmp_path / "root" / f"{pyz.name}_{build_id_of(pyz)}" / "site-packages").is_dir()


def build_id_of(pyz: Path) -> str:
    with zipfile.ZipFile(pyz) as archive:
        return str(json.loads(archive.read("environment.json"))["build_id"])
