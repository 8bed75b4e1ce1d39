"""``gz-ia update`` from an install into a Python environment names the tool that made it
(docs/install.md): pipx's own command in a venv pipx made, pip's anywhere else.

The environments are real venvs made as pipx makes its own (``python -m venv
--without-pip <PIPX_HOME>/venvs/gz-ia``, then ``pipx_metadata.json`` written in the venv's
root), with gz-ia and its dependencies reached through a ``.pth`` file instead of copied in:
what tells a pipx install apart is that file in ``sys.prefix`` and nothing else, so the
layout is the one a real ``pipx install`` leaves (checked by hand with pipx 1.x)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import gzia

PIPX_METADATA = {"main_package": {"package": "gz-ia", "package_or_url": "gz-ia"},
                 "pipx_metadata_version": "0.5", "venv_args": [], "injected_packages": {}}
HINTS = {
    ("pipx", "en"): "it was installed with pipx: upgrade it with 'pipx upgrade gz-ia'; "
                    "'gz-ia update --check' still works",
    ("pipx", "es"): "se instaló con pipx: actualízalo con 'pipx upgrade gz-ia'; "
                    "'gz-ia update --check' sigue funcionando",
    ("pip", "en"): "upgrade it with the tool that installed it, e.g. 'pip install --upgrade "
                   "gz-ia'; 'gz-ia update --check' still works",
    ("pip", "es"): "actualízalo con la herramienta que lo instaló, p. ej. 'pip install "
                   "--upgrade gz-ia'; 'gz-ia update --check' sigue funcionando",
}


def venv_with_gzia(root: Path, *, pipx: bool) -> Path:
    """A venv at ``root`` whose Python imports this gz-ia; pipx's metadata when ``pipx``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True,
                   timeout=120)
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(root),
                                                        "platbase": str(root)}))
    source = Path(gzia.__file__).resolve().parent.parent
    (purelib / "gzia-under-test.pth").write_text(
        f"{source}\n{sysconfig.get_path('purelib')}\n")
    if pipx:
        (root / "pipx_metadata.json").write_text(json.dumps(PIPX_METADATA))
    return root / "bin" / "python"


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("tool", ["pipx", "pip"])
def test_update_names_the_tool_that_installed_gzia(tmp_path: Path, tool: str,
                                                   lang: str) -> None:
    python = venv_with_gzia(tmp_path / "venvs" / "gz-ia", pipx=tool == "pipx")
    home = tmp_path / "user-home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8", "GZ_LANG": lang}
    human = subprocess.run([str(python), "-m", "gzia", "update"], env=env, cwd=home,
                           capture_output=True, text=True, timeout=60, check=False)
    assert human.returncode == 1, human.stderr
    assert human.stderr.splitlines()[1:] == [HINTS[tool, lang]]
    machine = subprocess.run([str(python), "-m", "gzia", "update", "--json"], env=env,
                             cwd=home, capture_output=True, text=True, timeout=60, check=False)
    error = json.loads(machine.stdout)["errors"][0]
    assert (machine.returncode, error["code"], error["hint"]) == (1, "NOT_FOUND",
                                                                 HINTS[tool, lang])
