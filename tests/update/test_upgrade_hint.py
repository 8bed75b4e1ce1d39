"""``gz-ia update`` from an install into a Python environment names the tool that made it
(docs/install.md): pipx's own command in a venv pipx made, pip's anywhere else; so does every
other message that says to update (the minimum version, a yanked version, ``update --check``,
``doctor``: docs/update.md), pinning the version where the move is a downgrade.

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
from typing import Any

import pytest

import gzia
from gzia._version import __version__
from gzia.update.model import parse_version
from tests.fakes.manifests import manifest_document, publish_nexus
from tests.update.conftest import nexus_env

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


# the advice of every message that says to update, per install ----------------------------

OLDER = "0.0.1"  # the channel's version when the running one is yanked: older than it
ADVICE = {  # (install, move): the command the messages name
    ("pipx", "upgrade"): "pipx upgrade gz-ia",
    ("pip", "upgrade"): "pip install --upgrade gz-ia",
    ("pipx", "downgrade"): f"pipx install --force gz-ia=={OLDER}",  # pipx upgrade never goes down
    ("pip", "downgrade"): f"pip install gz-ia=={OLDER}",
}


def run_gzia(python: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "gzia", *args], env=env, cwd=env["HOME"],
                          capture_output=True, text=True, timeout=60, check=False)


def installed_env(tmp_path: Path, tool: str, lang: str, nexus: Any,
                  keys: dict[str, str]) -> tuple[Path, dict[str, str]]:
    python = venv_with_gzia(tmp_path / "venvs" / "gz-ia", pipx=tool == "pipx")
    home = tmp_path / "user-home"
    home.mkdir()
    return python, {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8",
                    "GZ_LANG": lang, **nexus_env(nexus), **keys}


def release_check(python: Path, env: dict[str, str]) -> dict[str, Any]:
    doctor = json.loads(run_gzia(python, env, "doctor", "--json").stdout)
    [release] = [c for c in doctor["data"]["checks"] if c["name"] == "release"]
    return release


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("tool", ["pipx", "pip"])
def test_below_the_minimum_every_message_names_the_tool_that_installed_gzia(
        tmp_path: Path, nexus: Any, releases: Any, signed: Any, keys_env: dict[str, str],
        tool: str, lang: str) -> None:
    """'gz-ia update' refuses to replace a pip or pipx install: the minimum-version warning
    of every command, doctor's fix and update --check's verdict name the tool instead."""
    nexus.publish(releases("99.0.0"), "99.0.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(version="99.0.0",
                                                             minimum_version="99.0.0")))
    python, env = installed_env(tmp_path, tool, lang, nexus, keys_env)
    command = ADVICE[tool, "upgrade"]
    check = run_gzia(python, env, "update", "--check")
    assert check.returncode == 0, check.stderr
    assert check.stdout.splitlines()[-1] == {
        "en": f"⚡ A new version is available (v99.0.0). Run '{command}' to install it.",
        "es": f"⚡ Hay una nueva versión disponible (v99.0.0). Ejecuta '{command}' para "
              "instalarla."}[lang]
    nexus.server.go_down()  # what follows reads only the cache
    warned = json.loads(run_gzia(python, env, "errors", "--json").stdout)["warnings"]
    assert [(w["code"], w["message"]) for w in warned] == [("BELOW_MINIMUM_VERSION", {
        "en": f"gz-ia v{__version__} is below v99.0.0, the minimum version channel stable "
              f"supports: run '{command}'",
        "es": f"gz-ia v{__version__} es anterior a v99.0.0, la versión mínima que admite el "
              f"canal stable: ejecuta '{command}'"}[lang])]
    fix = {"en": f"run '{command}'", "es": f"ejecuta '{command}'"}[lang]
    assert release_check(python, env)["fix"] == fix


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("tool", ["pipx", "pip"])
def test_leaving_a_yanked_version_pins_the_older_one_for_pip_and_pipx(
        tmp_path: Path, nexus: Any, releases: Any, signed: Any, keys_env: dict[str, str],
        tool: str, lang: str) -> None:
    """The channel yanked the running version and its own is older: an update is available
    (never "already at the latest"), and since pip and pipx only upgrade, the command they
    are told pins the channel's version; doctor says the same."""
    assert parse_version(__version__) > parse_version(OLDER)
    nexus.publish(releases(OLDER), OLDER)
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version=OLDER, yanked=[{"version": __version__, "reason": "leaks a token"}])))
    python, env = installed_env(tmp_path, tool, lang, nexus, keys_env)
    command = ADVICE[tool, "downgrade"]
    check = run_gzia(python, env, "update", "--check")
    assert check.returncode == 0, check.stderr
    assert check.stdout.splitlines()[-1] == {
        "en": f"⚡ An update is available: v{OLDER}, the version of channel stable, replaces "
              f"the yanked v{__version__} (an older version). Run '{command}' to install it.",
        "es": f"⚡ Hay una actualización disponible: v{OLDER}, la versión del canal stable, "
              f"sustituye a la v{__version__} retirada (es una versión anterior). Ejecuta "
              f"'{command}' para instalarla."}[lang]
    assert check.stderr.splitlines()[-1].endswith({
        "en": f"leaks a token; '{command}' moves to v{OLDER}",
        "es": f"leaks a token; '{command}' pasa a v{OLDER}"}[lang])
    nexus.server.go_down()
    fix = {"en": f"run '{command}'", "es": f"ejecuta '{command}'"}[lang]
    assert release_check(python, env)["fix"] == fix
