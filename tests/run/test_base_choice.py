"""``--base`` and ``--fetch``: what a new session branches from, on real repositories and a
real bare remote; the user's branches and work tree are only read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import git

Gz = Callable[..., Result]
LIST_FILES = "import os\nprint(sorted(os.listdir('.')))\n"


def commit(directory: Path, name: str, text: str = "x\n") -> str:
    (directory / name).write_text(text)
    git(directory, "add", name)
    git(directory, "commit", "-q", "-m", f"add {name}")
    return git(directory, "rev-parse", "HEAD")


def state_of(repo: Path) -> tuple[str, str, str]:
    """What must not change: the branches, the checked-out branch and the work tree."""
    branches = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")
    users = [line for line in branches.splitlines() if not line.startswith("refs/heads/harness/")]
    return ("\n".join(users),
            git(repo, "symbolic-ref", "HEAD"), git(repo, "status", "--porcelain"))


@pytest.fixture
def feature(repo: Path) -> str:
    """A branch ``feature`` one commit ahead, the user back on ``main``."""
    git(repo, "switch", "-q", "-c", "feature")
    tip = commit(repo, "feature.txt")
    git(repo, "switch", "-q", "main")
    return tip


def test_base_branch_is_what_the_session_starts_from(gz: Gz, agent: Any, repo: Path,
                                                     feature: str) -> None:
    agent("lister", LIST_FILES)
    (repo / "draft.txt").write_text("the user's own uncommitted work\n")
    before = state_of(repo)
    result = gz("--json", "exec", "--base", "feature", "--", "lister", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert (record["base_branch"], record["base_commit"]) == ("feature", feature)
    assert "'feature.txt'" in result.stderr  # the agent saw the feature branch's file
    assert git(repo, "rev-parse", f"harness/{record['id']}") == feature
    assert state_of(repo) == before
    # The base work tree's uncommitted file was never going to be in this session.
    assert all(w["code"] != "UNCOMMITTED_CHANGES" for w in result.json.get("warnings", []))


@pytest.mark.parametrize("kind", ["tag", "commit"])
def test_base_tag_or_commit_has_no_base_branch(gz: Gz, agent: Any, repo: Path, feature: str,
                                               kind: str) -> None:
    agent("lister", LIST_FILES)
    git(repo, "tag", "v1", feature)
    ref = "v1" if kind == "tag" else feature[:10]
    record = gz("--json", "exec", "--base", ref, "--", "lister", cwd=repo).json["data"]
    assert (record["base_branch"], record["base_commit"]) == (None, feature)


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Error: base 'nope' is not a branch, tag or commit of this repository\n"
           "list branches with: git branch -a\n"),
    ("es", "Error: la base 'nope' no es una rama, etiqueta ni commit de este repositorio\n"
           "lista las ramas con: git branch -a\n"),
])
def test_unknown_base_is_refused_before_anything_is_made(gz: Gz, agent: Any, repo: Path,
                                                         lang: str, message: str) -> None:
    agent("lister", LIST_FILES)
    before = state_of(repo)
    result = gz("exec", "--base", "nope", "--", "lister", cwd=repo, env={"GZ_LANG": lang})
    assert (result.exit_code, result.stderr) == (1, message)
    assert not (repo / ".harness" / "sessions").exists() or not any(
        (repo / ".harness" / "sessions").iterdir())
    assert git(repo, "branch", "--list", "harness/*") == ""
    assert state_of(repo) == before


@pytest.mark.parametrize("base", ["--upload-pack=touch pwned", "-x", "a b"])
def test_option_like_base_is_invalid_input(gz: Gz, agent: Any, repo: Path, base: str) -> None:
    agent("lister", LIST_FILES)
    result = gz("--json", "exec", f"--base={base}", "--", "lister", cwd=repo)
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"
    assert not (repo / "pwned").exists()


@pytest.fixture
def origin(repo: Path, tmp_path: Path) -> Path:
    """A bare remote ``origin`` that has one more commit on ``main`` than the clone."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    git(other, "config", "user.email", "other@example.com")
    git(other, "config", "user.name", "Other")
    commit(other, "upstream.txt")
    git(other, "push", "-q", "origin", "main")
    return bare


def test_fetch_branches_from_the_remotes_newest_commit(gz: Gz, agent: Any, repo: Path,
                                                      origin: Path) -> None:
    agent("lister", LIST_FILES)
    before = state_of(repo)
    result = gz("--json", "exec", "--fetch", "--", "lister", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    upstream = git(origin, "rev-parse", "main")
    assert (record["base_branch"], record["base_commit"], record["base_remote"]) == (
        "main", upstream, "origin")
    assert "'upstream.txt'" in result.stderr
    assert git(repo, "rev-parse", "refs/remotes/origin/main") == upstream
    assert state_of(repo) == before  # the local main did not move


def test_base_remote_tracking_branch_is_the_branch_and_its_remote(
        gz: Gz, agent: Any, repo: Path, origin: Path) -> None:
    agent("lister", LIST_FILES)
    git(repo, "fetch", "-q", "origin")
    record = gz("--json", "exec", "--base", "origin/main", "--", "lister", cwd=repo).json["data"]
    assert (record["base_branch"], record["base_remote"], record["base_commit"]) == (
        "main", "origin", git(origin, "rev-parse", "main"))


def test_fetch_from_a_remote_that_is_gone_is_a_network_error(gz: Gz, agent: Any, repo: Path,
                                                             origin: Path, tmp_path: Path) -> None:
    agent("lister", LIST_FILES)
    origin.rename(tmp_path / "moved.git")
    result = gz("--json", "exec", "--fetch", "--base", "main", "--", "lister", cwd=repo)
    assert result.exit_code == 1
    (error,) = result.json["errors"]
    assert (error["code"], error["details"]) == ("NETWORK", {"branch": "main",
                                                             "remote": "origin"})
    assert error["message"].startswith("could not fetch 'main' from 'origin': ")
    assert git(repo, "branch", "--list", "harness/*") == ""
