"""Apply-step details: the shiv cache clean-up and where the running zipapp is."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gzia.selfexec import running_pyz
from gzia.update.apply import build_id, clean_shiv_cache, pyz_version, shiv_root
from tests.fakes.releases import make_standin_pyz


def test_clean_shiv_cache_keeps_the_new_and_the_running_build(tmp_path: Path):
    root = tmp_path / "shiv"
    names = ["gz-ia.pyz_new", "gz-ia.pyz_running", "gz-ia.pyz_old", "gz-ia.pyz.previous_x",
             "other.pyz_old", "gz-ia_new", "gz-ia_older"]
    for name in names:
        (root / name).mkdir(parents=True)
        (root / f".{name}_lock").touch()
    removed = clean_shiv_cache("gz-ia.pyz", {"new", "running"}, root)
    assert sorted(p.name for p in removed) == [
        "gz-ia.pyz.previous_x", "gz-ia.pyz_old", "gz-ia_older"]
    assert sorted(p.name for p in root.iterdir()) == [
        ".gz-ia.pyz_new_lock", ".gz-ia.pyz_running_lock", ".gz-ia_new_lock",
        ".other.pyz_old_lock", "gz-ia.pyz_new", "gz-ia.pyz_running", "gz-ia_new",
        "other.pyz_old"]


def test_shiv_root_follows_shiv_else_the_cache_dir(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path):
    monkeypatch.setenv("SHIV_ROOT", "$CACHE_FOR_SHIV")
    monkeypatch.setenv("CACHE_FOR_SHIV", str(tmp_path))
    assert shiv_root() == tmp_path
    monkeypatch.delenv("SHIV_ROOT")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert shiv_root() == tmp_path / "cache" / "gz-ia" / "shiv"


def test_the_update_clean_up_spares_an_extraction_a_running_gz_ia_holds(tmp_path: Path):
    root = tmp_path / "shiv"
    (root / "gz-ia.pyz_held" / "site-packages").mkdir(parents=True)
    (root / "gz-ia.pyz_free" / "site-packages").mkdir(parents=True)
    holder = hold_in_another_process(root / "gz-ia.pyz_held")
    try:
        removed = clean_shiv_cache("gz-ia.pyz", {"new"}, root)
    finally:
        holder.stdin.close()  # type: ignore[union-attr]
        holder.wait(timeout=30)
    assert [p.name for p in removed] == ["gz-ia.pyz_free"]
    assert sorted(p.name for p in root.iterdir()) == ["gz-ia.pyz_held"]


def hold_in_another_process(extraction: Path) -> subprocess.Popen[str]:
    """A real process that marks ``extraction`` in use as a running gz-ia does, until its
    stdin closes."""
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; from gzia.extraction import hold; "
         "print(hold(sys.argv[1]), flush=True); sys.stdin.read()", str(extraction)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def test_running_pyz_resolves_symlinks_and_ignores_scripts(tmp_path: Path):
    real = make_standin_pyz(tmp_path / "gz-ia.pyz", "1.0.0", build_id="b1d")
    link = tmp_path / "gz-ia"
    link.symlink_to(real)
    assert running_pyz(str(link)) == real
    assert build_id(real) == "b1d"
    script = tmp_path / "script"
    script.write_text("#!/usr/bin/env python3\n")
    assert running_pyz(str(script)) is None
    assert running_pyz("") is None


def test_the_version_of_a_zipapp_is_read_in_either_layout(tmp_path: Path) -> None:
    """gz-ia.pyz keeps its site-packages in one member (build/set_pyz_entry.py); zipapps
    built before kept them as entries of their own: rollback reports the version of both."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as dependencies:
        dependencies.writestr("site-packages/gzia/_version.py", '__version__ = "2.1.0"\n')
    one_member = tmp_path / "one-member.pyz"
    with zipfile.ZipFile(one_member, "w") as archive:
        archive.writestr("__main__.py", "")
        archive.writestr("site-packages.zip", inner.getvalue())
    assert pyz_version(one_member) == "2.1.0"
    assert pyz_version(make_standin_pyz(tmp_path / "entries.pyz", "1.9.0")) == "1.9.0"
