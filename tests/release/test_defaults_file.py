"""build/check_defaults.py: what build/shiv.sh lets into a zipapp as built-in defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.release.conftest import REPO


def check(file: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "build" / "check_defaults.py"), str(file)],
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
