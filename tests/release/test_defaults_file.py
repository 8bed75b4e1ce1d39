"""build/check_defaults.py: what build/shiv.sh lets into a zipapp as built-in defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.release.conftest import REPO


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
