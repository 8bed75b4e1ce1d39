"""The README's install and docs/install.md's uninstall, run literally by a new user (fresh
HOME, the XDG defaults, no SHIV_ROOT): once the uninstall steps ran, nothing gz-ia made is
left, in HOME or in the project."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.config import paths

REPO = Path(__file__).resolve().parents[2]


def shell_blocks(markdown: str, section: str | None = None) -> list[str]:
    if section is not None:
        start = markdown.index(f"## {section}\n")
        end = markdown.find("\n## ", start + 3)
        markdown = markdown[start:None if end == -1 else end]
    return re.findall(r"```sh\n(.*?)```", markdown, flags=re.DOTALL)


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    """A short XDG_RUNTIME_DIR (socket paths are limited) of this test alone."""
    path = Path(tempfile.mkdtemp(prefix="gzrt"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_as_user(script: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, (script, done.stdout, done.stderr)
    return done.stdout


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()}


@pytest.mark.pyz
def test_the_documented_uninstall_leaves_nothing_behind(
    pyz: Path, tmp_path: Path, isolated_env: Path, runtime_dir: Path,
) -> None:
    home = isolated_env
    before = files_under(home)  # the test's own git identity
    checkout, bin_dir = tmp_path / "checkout", tmp_path / "python-bin"
    (checkout / "dist").mkdir(parents=True)
    for built in (pyz, pyz.with_name("gz-ia.1")):
        (checkout / "dist" / built.name).symlink_to(built)
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)  # the pyz's `/usr/bin/env python3`
    env = {"HOME": str(home), "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": str(runtime_dir),
           "PATH": f"{home}/.local/bin:{bin_dir}:/usr/bin:/bin"}
    install = [block for block in shell_blocks((REPO / "README.md").read_text())
               if "install -m 755" in block or "source <(gz-ia completion bash)" in block]
    manual = re.search(r"`(install -D -m 644 dist/gz-ia\.1 [^`]+)`",
                       (REPO / "docs" / "install.md").read_text())
    assert len(install) == 2 and manual is not None
    run_as_user("\n".join([*install, manual[1]]), checkout, env)

    project = tmp_path / "project"
    project.mkdir()
    run_as_user("git init -q && git commit -q --allow-empty -m start\n"
                "gz-ia -q exec -b -- sh -c 'echo kept > kept.txt'\n"  # sockets: the runtime dir
                "gz-ia -q session wait \"$(gz-ia --json session list | python3 -c 'import "
                "json, sys; print(json.load(sys.stdin)[\"data\"][\"sessions\"][0][\"id\"])')\"\n"
                "gz-ia -q exec -- sh -c 'echo merged > merged.txt'\n"
                "gz-ia -q session merge \"$(gz-ia --json session list | python3 -c 'import "
                "json, sys; print(json.load(sys.stdin)[\"data\"][\"sessions\"][0][\"id\"])')\"\n",
                project, env)
    assert (runtime_dir / "gz-ia").is_dir() and (home / ".cache" / "gz-ia" / "shiv").is_dir()

    each_project, everything_else = shell_blocks((REPO / "docs" / "install.md").read_text(),
                                                 "Uninstalling")
    run_as_user(each_project, project, env)
    run_as_user(everything_else, tmp_path, env)

    assert files_under(home) - before == set()
    assert not (runtime_dir / "gz-ia").exists()
    assert run_as_user("git for-each-ref --format='%(refname)'; git worktree list --porcelain"
                       " | grep -c '^worktree '; git status --short --ignored", project, env
                       ).split() == ["refs/heads/main", "1"]  # nothing untracked, nothing ignored
    exclude = (project / ".git" / "info" / "exclude").read_text()
    assert "harness" not in exclude and "gz-ia" not in exclude


def test_the_documented_runtime_fallback_is_gz_ias() -> None:
    """The uninstall removes ``/tmp/gz-ia-<uid>`` when no XDG_RUNTIME_DIR applies (the
    test above cannot: that directory is shared by every gz-ia of this user)."""
    assert '"/tmp/gz-ia-$(id -u)"' in (REPO / "docs" / "install.md").read_text()
    assert paths({}).runtime_dir == Path(f"/tmp/gz-ia-{os.getuid()}")
