"""The administrator's policy as an unprivileged user meets it: the real system path
(``/etc/xdg/gz-ia/policy.toml``, bound over ``/etc/xdg`` in a mount namespace of the test's
own, so no other process of the machine sees it), owned by root, and ``nobody`` with no
capability trying to get around it (docs/configuration.md, "Admin policy")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.run.test_credentials_unreadable import NOBODY
from tests.sandbox.test_unprivileged import as_nobody, system_python

POLICY = 'allow_push = false\nupdate_check = "off"\n[update]\nallow_from = false\n'
SYSTEM_FILE = "/etc/xdg/gz-ia/policy.toml"


@dataclass
class Machine:
    xdg: Path  # bound over /etc/xdg for gz-ia's runs
    home: Path  # nobody's

    @property
    def policy(self) -> Path:
        return self.xdg / "gz-ia" / "policy.toml"

    def gz(self, *args: str, **env: str) -> tuple[int, dict[str, Any]]:
        """``gz-ia --json ARGS`` as ``nobody``, with this machine's /etc/xdg."""
        python, path = system_python()
        mount = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                 'mount --bind "$0" /etc/xdg && exec "$@"', str(self.xdg)]
        done = subprocess.run(
            [*mount, *as_nobody(python, "-m", "gzia", "--json", *args)],
            cwd=self.home, capture_output=True, text=True, timeout=120, check=False,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(self.home), **path,
                 **env})
        return done.returncode, json.loads(done.stdout)


@pytest.fixture
def machine() -> Iterator[Machine]:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root (to own the policy and bind it over /etc/xdg) and unshare")
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("no mount namespaces here")
    place = Path(tempfile.mkdtemp(prefix="gz-ia-policy-"))
    place.chmod(0o755)
    (place / "xdg" / "gz-ia").mkdir(parents=True)
    home = place / "home"
    (home / ".config" / "gz-ia").mkdir(parents=True)
    for path in (home, *home.rglob("*")):
        os.lchown(path, NOBODY.pw_uid, NOBODY.pw_gid)
    found = Machine(place / "xdg", home)
    found.policy.write_text(POLICY)
    found.policy.chmod(0o644)
    yield found
    shutil.rmtree(place, ignore_errors=True)


def settings_of(document: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    return {s["key"]: (s["value"], s["source"]) for s in document["data"]["settings"]}


def checks_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in document["data"]["checks"]}


def test_a_user_cannot_lift_a_root_policy_with_their_config_or_environment(
        machine: Machine) -> None:
    (machine.home / ".config" / "gz-ia" / "config.toml").write_text("allow_push = true\n")
    own = machine.home / "own-policy.toml"
    own.write_text("")
    elsewhere = machine.home / "xdg" / "gz-ia"
    elsewhere.mkdir(parents=True)
    (elsewhere / "policy.toml").write_text("allow_push = true\n")

    code, listed = machine.gz("config", "list", GZ_ALLOW_PUSH="true",
                              GZ_POLICY_FILE=str(own), XDG_CONFIG_DIRS=str(machine.home / "xdg"))
    set_code, refused = machine.gz("config", "set", "allow_push", "true")
    from_code, from_refused = machine.gz("update", "--dry-run", "--from",
                                                str(machine.home))
    _, doctor = machine.gz("doctor")

    assert code == 0, listed
    settings = settings_of(listed)
    assert (settings["allow_push"], settings["update_check"]) == (
        (False, "policy"), ("off", "policy"))
    assert (set_code, refused["errors"][0]["code"], refused["errors"][0]["details"]) == (
        1, "SAFETY_BLOCK", {"key": "allow_push", "file": SYSTEM_FILE})
    assert (from_code, from_refused["errors"][0]["code"]) == (1, "SAFETY_BLOCK")
    assert checks_of(doctor)["policy"] == {
        "name": "policy", "ok": True, "required": False,
        "detail": f"administrator's policy {SYSTEM_FILE}", "fix": None}


@pytest.mark.parametrize(("language", "message", "hint"), [
    ("en", f"cannot read the policy file {SYSTEM_FILE}: Permission denied",
     "a policy file must be readable by every user of gz-ia (mode 644): ask the administrator "
     "of this machine"),
    ("es", f"no se puede leer el archivo de política {SYSTEM_FILE}: Permission denied",
     "un archivo de política debe poder leerlo cada usuario de gz-ia (modo 644): pregunta al "
     "administrador de esta máquina"),
])
def test_a_policy_the_user_cannot_read_stops_what_reads_settings(
        machine: Machine, language: str, message: str, hint: str) -> None:
    """Skipping it would lift its rules: the command stops and says who can fix it."""
    machine.policy.chmod(0o600)

    code, listed = machine.gz("config", "list", GZ_LANG=language)
    _, doctor = machine.gz("doctor", GZ_LANG=language)

    assert code == 1
    assert listed["errors"] == [{"code": "IO", "message": message, "hint": hint,
                                 "retryable": False, "details": {"file": SYSTEM_FILE}}]
    config = checks_of(doctor)["config"]
    assert (config["ok"], config["detail"], config["fix"]) == (False, message, hint)


@pytest.mark.parametrize("loose", ["file", "folder"])
def test_a_policy_the_user_can_change_still_applies_and_doctor_says_so(
        machine: Machine, loose: str) -> None:
    if loose == "file":
        machine.policy.chmod(0o666)
    else:
        os.lchown(machine.policy.parent, NOBODY.pw_uid, NOBODY.pw_gid)

    _, listed = machine.gz("config", "list")
    _, doctor = machine.gz("doctor")

    assert settings_of(listed)["allow_push"] == (False, "policy")
    assert checks_of(doctor)["policy"] == {
        "name": "policy", "ok": False, "required": False,
        "detail": f"this user can change the administrator's policy {SYSTEM_FILE}: it binds "
                  "them only as long as they leave it alone",
        "fix": "the administrator: make the file and its folder owned by root and writable "
               "only by root (chmod 644 the file, 755 the folder)"}
    assert doctor["data"]["ready"] is True  # a warning: the rules still hold
