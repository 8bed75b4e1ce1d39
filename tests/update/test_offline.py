"""``gz-ia update --from PATH|URL``: offline and mirrored installs, checked exactly as a
downloaded release (signature, hash, ``--version``, atomic swap, ``.previous``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fakes.nexus import NexusFake
from tests.fakes.releases import pyz_name, standin_pyz_bytes
from tests.fakes.signing import MinisignKey
from tests.update.conftest import previous_of, pyz_reports
from tests.waiting import wait_for


def write_release(folder: Path, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def expected(target: Path, source: str, version: str = "2.0.0") -> dict:
    return {"ok": True, "data": {
        "current": "1.0.0", "version": version, "source": source, "newer": True,
        "updated": True, "dry_run": False, "verified": True, "path": str(target),
        "previous": str(previous_of(target))}, "errors": [], "warnings": []}


def test_from_a_directory_installs_the_newest_release_of_this_platform(
        releases, update_cli, target: Path, tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("2.0.0"))
    old = target.read_bytes()

    done = update_cli("update", "--from", str(folder), "--json")

    assert done.json == expected(target, str(folder))
    assert pyz_reports(target) == "gz-ia 2.0.0"
    assert previous_of(target).read_bytes() == old
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]


def test_from_a_file_with_its_sums_beside_it(releases, update_cli, target: Path,
                                             tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("2.0.0"))
    file = folder / pyz_name("2.0.0")

    done = update_cli("update", "--from", str(file))

    assert (done.exit_code, done.stdout) == (
        0, f"✓ gz-ia updated successfully to v2.0.0 in {target}\n")
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_a_tampered_file_is_refused_and_nothing_changes(releases, update_cli, target: Path,
                                                        tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("2.0.0"))
    (folder / pyz_name("2.0.0")).write_bytes(standin_pyz_bytes("6.6.6"))
    old = target.read_bytes()

    done = update_cli("update", "--from", str(folder), "--json")

    assert done.exit_code == 1
    [error] = done.json["errors"]
    assert (error["code"], error["message"]) == (
        "INTEGRITY", f"{pyz_name('2.0.0')}: sha256 does not match SHA256SUMS")
    assert target.read_bytes() == old
    assert not previous_of(target).exists()


def test_an_unsigned_release_is_refused(releases, update_cli, target: Path, tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("2.0.0"))
    (folder / "SHA256SUMS.minisig").unlink()

    english = update_cli("update", "--from", str(folder), "--json")
    spanish = update_cli("update", "--from", str(folder), env={"GZ_LANG": "es"})

    assert english.exit_code == 1
    assert english.json["errors"] == [{
        "code": "INTEGRITY", "retryable": False, "hint": None,
        "message": f"SHA256SUMS.minisig is missing in {folder}: a release without its signed "
                   "SHA256SUMS is never installed",
        "details": {"file": "SHA256SUMS.minisig", "folder": str(folder)}}]
    assert spanish.stderr == (f"Error: falta SHA256SUMS.minisig en {folder}: nunca se instala "
                              "una versión sin su SHA256SUMS firmado\n")
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_a_release_signed_by_an_untrusted_key_is_refused(releases, update_cli, target: Path,
                                                         tmp_path: Path):
    stranger = MinisignKey.generate(tmp_path / "stranger")
    folder = write_release(tmp_path / "stick", releases("2.0.0", key=stranger))

    done = update_cli("update", "--from", str(folder), "--json")

    assert done.exit_code == 1
    assert done.json["errors"][0]["code"] == "INTEGRITY"
    assert done.json["errors"][0]["message"].startswith("SHA256SUMS signature rejected")
    assert pyz_reports(target) == "gz-ia 1.0.0"


@pytest.mark.parametrize("as_file", [False, True])
def test_from_a_url_on_a_mirror(nexus: NexusFake, releases, update_cli, target: Path,
                                as_file: bool):
    nexus.publish(releases("2.0.0"), "2.0.0")
    url = f"{nexus.server.url}/repository/gz-ia/gz-ia/2.0.0/"
    url += pyz_name("2.0.0") if as_file else ""

    done = update_cli("update", "--from", url, "--json")

    assert done.json == expected(target, url)
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_an_older_release_is_a_downgrade_and_the_policy_may_forbid_from(
        releases, update_cli, target: Path, tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("0.9.0"))
    older = update_cli("update", "--from", str(folder), "--json")
    policy = tmp_path / "policy.toml"
    policy.write_text("[update]\nallow_from = false\n")
    forbidden = update_cli("update", "--from", str(folder), "--allow-downgrade", "--json",
                           env={"GZ_POLICY_FILE": str(policy)})

    assert older.json["errors"][0]["code"] == "SAFETY_BLOCK"
    assert forbidden.json["errors"][0]["message"] == (
        f"--from is not permitted by the administrator's policy in {policy}")
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_nothing_for_this_platform_is_not_found(releases, update_cli, tmp_path: Path):
    folder = write_release(tmp_path / "stick", releases("2.0.0", platform="plan9-mips"))
    done = update_cli("update", "--from", str(folder), "--json")
    assert done.exit_code == 1
    assert done.json["errors"][0]["code"] == "NOT_FOUND"


def test_sigkill_during_from_leaves_a_working_file(releases, target: Path, tmp_path: Path,
                                                   keys_env: dict[str, str]):
    slow = standin_pyz_bytes("2.0.0", version_delay=1.0)
    folder = write_release(tmp_path / "stick", releases("2.0.0", payload=slow))
    staged = target.parent / ".gz-ia.pyz.update" / target.name
    child = subprocess.Popen([sys.executable, str(target), "update", "--from", str(folder)],
                             env={**os.environ, **keys_env}, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: staged.exists() and staged.stat().st_size == len(slow), "staged file",
                 timeout=60)
        time.sleep(0.3)  # inside the staged file's --version
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait(10)
    assert pyz_reports(target) == "gz-ia 1.0.0"
    done = subprocess.run([sys.executable, str(target), "update", "--from", str(folder)],
                          env={**os.environ, **keys_env}, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert pyz_reports(target) == "gz-ia 2.0.0"
