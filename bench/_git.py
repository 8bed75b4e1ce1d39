"""A throwaway git repository for a benchmark, with an identity of its own."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def make_repo(root: Path) -> Path:
    """``root/repo``: a fresh repository with one empty commit."""
    repo = root / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@invalid"}
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    return repo
