"""The README's two commands are real: the demo runs a session, CI runs the test command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_readme_holds_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (REPO / "README.md").read_text()
    assert "bash build/shiv.sh && bash build/demo.sh" in readme
    assert "bash build/test.sh" in readme
    assert "bash build/test.sh" in (REPO / ".ci" / "run").read_text()


@pytest.mark.pyz
def test_demo_runs_a_real_session_and_merges_it(pyz: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHON": sys.executable, "TMPDIR": str(tmp_path)}
    done = subprocess.run(["bash", str(REPO / "build" / "demo.sh"), str(pyz)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "hello from an agent"
    assert "completed" in done.stdout
    assert "  • hello.txt" in lines
    [demo_repo] = tmp_path.glob("gz-ia-demo.*")
    assert (demo_repo / "hello.txt").read_text() == "hello from an agent\n"
