"""``session pr`` through the shipped zipapp: the token given in the environment reaches
the forge (the one session command that keeps it), and the Spanish catalogue is in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.fakes.pulls import PullsFake
from tests.sessions.review.conftest import SID, forgejo_env
from tests.sessions.session_testkit import run_git


@pytest.mark.pyz
def test_pyz_opens_then_reports_the_pull_request(run_pyz: Callable[..., Result], repo: Path,
                                                 remote: Path, session: Path,
                                                 forgejo_pulls: PullsFake) -> None:
    env = {**forgejo_env(forgejo_pulls), "GZ_LANG": "es"}
    url = f"{forgejo_pulls.server_web}/acme/widget/pulls/1"
    opened = run_pyz("session", "pr", SID, env=env, cwd=repo)
    assert (opened.exit_code, opened.stdout) == (
        0, f"✓ Sesión '{SID}' subida a origin; solicitud de fusión #1 abierta: {url}\n")
    again = run_pyz("session", "pr", SID, "--json", env=env, cwd=repo)
    assert again.json["data"]["created"] is False
    assert forgejo_pulls.token not in opened.stdout + opened.stderr + again.stdout
    assert run_git(remote, "branch", "--list").split() == [f"harness/{SID}"]
