"""The README's two commands are real: the demo runs a session, CI runs the test command."""

from __future__ import annotations

import os
import re
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


def test_readme_says_how_to_install_complete_and_test_a_part() -> None:
    """A newcomer learns where the built file goes, that building needs the registry, how
    long the tests take and how to run a fast subset; the subset's markers are real."""
    readme = (REPO / "README.md").read_text()
    assert "install -m 755 dist/gz-ia.pyz ~/.local/bin/gz-ia" in readme
    assert "package registry" in readme
    assert "source <(gz-ia completion bash)" in readme
    assert "gz-ia completion zsh" in readme and "gz-ia completion fish" in readme
    minutes = re.search(r"The\s+whole run takes (\d+) minutes", readme)
    assert minutes is not None and int(minutes[1]) > 0
    subset = re.search(r'pytest (tests/\w+) -q -m "([^"]+)"', readme)
    assert subset is not None and (REPO / subset[1]).is_dir()
    declared = (REPO / "pyproject.toml").read_text()
    for marker in re.findall(r"not (\w+)", subset[2]):
        assert f'"{marker}: ' in declared, marker


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
    assert list(tmp_path.glob("gz-ia-demo.*")) == []  # the throwaway repository is gone


@pytest.mark.pyz
def test_demo_removes_its_repository_when_it_fails_and_keeps_it_when_asked(
    pyz: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHON": sys.executable, "TMPDIR": str(tmp_path)}
    missing = tmp_path / "missing.pyz"
    failed = subprocess.run(["bash", str(REPO / "build" / "demo.sh"), str(missing)], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert failed.returncode != 0
    assert list(tmp_path.glob("gz-ia-demo.*")) == []
    kept = subprocess.run(["bash", str(REPO / "build" / "demo.sh"), str(pyz)],
                          env={**env, "GZ_DEMO_KEEP": "1"}, capture_output=True, text=True,
                          timeout=120, check=False)
    assert kept.returncode == 0, kept.stderr
    [demo_repo] = tmp_path.glob("gz-ia-demo.*")
    assert (demo_repo / "hello.txt").read_text() == "hello from an agent\n"
    assert kept.stdout.splitlines()[-1] == f"(kept {demo_repo})"
