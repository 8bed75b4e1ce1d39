"""build/check_defaults.py: what build/shiv.sh and ``release.py build`` let into a zipapp as
built-in defaults and policy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.release.conftest import REPO, RunRelease


def check(file: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "build" / "check_defaults.py"), *options, str(file)],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip


@pytest.mark.parametrize(("text", "message"), [
    ('nexus_search_url = "https://n.example/s"\n', "embedding defaults for nexus_search_url\n"),
    ('nexus_password = "pw"\nforgejo_token = "t"\nnexus_user = "ci"\n',
     "build/shiv.sh: GZ_BUILD_DEFAULTS holds secrets (forgejo_token, nexus_password): "
     "a built zipapp is no place for them; let each user set them\n"),
    ("registry = 1\n", "build/shiv.sh: GZ_BUILD_DEFAULTS: unknown setting 'registry' in {file}\n"),
])  # fmt: skip
def test_the_build_embeds_only_known_keys_and_no_secret(
    tmp_path: Path, text: str, message: str
) -> None:
    file = tmp_path / "defaults.toml"
    file.write_text(text)

    done = check(file)

    assert done.stderr == message.format(file=file)
    assert done.returncode == (0 if message.startswith("embedding") else 1)


def test_the_build_embeds_only_a_valid_policy(tmp_path: Path):
    file = tmp_path / "policy.toml"
    file.write_text('allow_push = false\n[update]\nallow_from = false\n'
                    '[agents.claude]\nversion = ">=1"\n')
    good = check(file, "--policy")
    file.write_text('forgejo_token = "t"\n')
    bad = check(file, "--policy")
    assert (good.returncode, good.stderr) == (
        0, "embedding the policy for allow_push, update.allow_from, agents.claude\n")
    assert (bad.returncode, bad.stderr) == (
        1, f"build/shiv.sh: GZ_BUILD_POLICY: setting 'forgejo_token' in {file} is a secret, "
           "which a policy file (readable by every user) cannot hold\n")


@pytest.mark.parametrize("option", ["--policy", "--defaults"])
def test_release_build_checks_what_it_embeds_before_building_anything(
    tmp_path: Path, run_release: RunRelease, option: str
) -> None:
    file = tmp_path / "embedded.toml"
    file.write_text('forgejo_token = "t"\n')
    out, work = tmp_path / "dist", tmp_path / "work"

    done = run_release("build", "--version", "1.2.3", "--dir", out, "--work-dir", work,
                       option, file, "--json")

    [error] = json.loads(done.stdout)["errors"]
    assert (done.exit_code, error["code"], error["details"]) == (
        2, "INVALID_INPUT", {"file": str(file)})
    assert error["message"] == {
        "--policy": f"--policy: setting 'forgejo_token' in {file} is a secret, which a policy "
                    "file (readable by every user) cannot hold",
        "--defaults": "--defaults holds secrets (forgejo_token): a built zipapp is no place "
                      "for them; let each user set them",
    }[option]
    assert not out.exists() and not work.exists()  # no wheel fetched, no artifact begun


def test_release_build_embeds_the_policy_through_build_shiv_sh(
    tmp_path: Path, run_release: RunRelease, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--policy`` and ``GZ_BUILD_POLICY`` are one path: the option becomes the variable
    build/shiv.sh reads (checked again there), and a variable of the caller's own never
    slips into a release build."""
    from release import build

    policy = tmp_path / "policy.toml"
    policy.write_text('allow_push = false\n')
    monkeypatch.setenv("GZ_BUILD_POLICY", str(tmp_path / "stray.toml"))
    missing = run_release("build", "--version", "1.2.3", "--dry-run", "--json",
                          "--policy", tmp_path / "absent.toml")
    done = run_release("build", "--version", "1.2.3", "--dry-run", "--json", "--policy", policy)
    plan = build.BuildPlan(REPO, "1.2.3", [], tmp_path, tmp_path, tmp_path, tmp_path)

    assert json.loads(missing.stdout)["errors"][0]["code"] == "NOT_FOUND"
    assert (done.exit_code, json.loads(done.stdout)["data"]["policy"]) == (0, str(policy))
    assert "GZ_BUILD_POLICY" not in build.shiv_env(plan, tmp_path / "o", tmp_path)
    with_policy = build.shiv_env(replace(plan, policy=policy), tmp_path / "o", tmp_path)
    assert with_policy["GZ_BUILD_POLICY"] == str(policy)
