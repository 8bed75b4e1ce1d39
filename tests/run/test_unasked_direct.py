"""No run starts unisolated without being asked, wherever it starts: from the home
directory (whose hint must not say ``git init`` there), on a resume of an isolated session
whose directory is no longer in a git work tree, and from the terminal UI's form."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import SafetyBlockError
from tests.conftest import Result

Gz = Callable[..., Result]
TOUCH = "open('made-here.txt', 'w').close()\n"


def test_from_the_home_directory_the_hint_says_to_go_to_the_project(
        gz: Gz, agent: Any, isolated_env: Path) -> None:
    home = isolated_env
    before = sorted(p.name for p in home.iterdir())
    agent("touch-it", TOUCH)
    result = gz("--json", "exec", "--", "touch-it", cwd=home)
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "SAFETY_BLOCK", "retryable": False, "details": {"dir": str(home)},
        "message": f"'{home}' is not in a git work tree: the agent would work directly in your "
                   "files, with no isolated worktree to review or throw away",
        "hint": "run it from your project's directory (cd there, or -d <project>); or run it "
                "here anyway with --direct (or gz-ia config set direct true)"}]
    spanish = gz("exec", "-b", "--", "touch-it", cwd=home, env={"GZ_LANG": "es"})
    assert (spanish.exit_code, spanish.stderr.splitlines()[1]) == (
        1, "ejecútalo desde el directorio de tu proyecto (ve allí con cd, o -d <proyecto>); o "
           "ejecútalo aquí de todos modos con --direct (o gz-ia config set direct true)")
    assert sorted(p.name for p in home.iterdir()) == before  # no .harness/, nothing run


def _session_then_no_git(gz: Gz, agent: Any, repo: Path, tmp_path: Path) -> str:
    agent("touch-it", TOUCH)
    started = gz("--json", "exec", "--", "touch-it", cwd=repo)
    assert started.exit_code == 0, started.stderr
    (repo / ".git").rename(tmp_path / "git-aside")  # the repository is gone, .harness/ stays
    session_id: str = started.json["data"]["id"]
    return session_id


@pytest.mark.parametrize("command", [["resume"], ["session", "resume"], ["resume", "-b"]])
def test_an_isolated_session_is_not_resumed_in_a_directory_that_left_git(
        gz: Gz, agent: Any, repo: Path, tmp_path: Path, command: list[str]) -> None:
    session_id = _session_then_no_git(gz, agent, repo, tmp_path)
    result = gz("--json", *command, session_id, cwd=repo)
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "NOT_FOUND", "retryable": False,
        "details": {"id": session_id, "dir": str(repo)},
        "message": f"session '{session_id}' ran in an isolated worktree, but '{repo}' is no "
                   "longer in a git work tree: resuming it there would run the agent directly "
                   "in your files",
        "hint": "put the repository's .git back, or start a new session (with --direct to "
                "work in the directory itself)"}]
    assert not (repo / "made-here.txt").exists()
    spanish = gz(*command, session_id, cwd=repo, env={"GZ_LANG": "es"})
    assert spanish.stderr.splitlines()[0] == (
        f"Error: la sesión '{session_id}' se ejecutó en un worktree aislado, pero '{repo}' ya "
        "no está en un árbol de trabajo de git: reanudarla ahí ejecutaría el agente "
        "directamente sobre tus archivos")
    (tmp_path / "git-aside").rename(repo / ".git")
    again = gz("resume", session_id, cwd=repo)
    assert again.exit_code == 0, again.stderr
    assert not (repo / "made-here.txt").exists()  # it ran in its worktree


def test_the_terminal_uis_new_session_form_refuses_too(
        agent: Any, tmp_path: Path, run_env: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gzia.tui.starting import Choice, start

    plain = tmp_path / "plain"
    plain.mkdir()
    agent("touch-it", TOUCH)
    monkeypatch.setenv("PATH", run_env["PATH"])
    with pytest.raises(SafetyBlockError) as refused:
        start(plain, Choice("shell", "supervised", command=("touch-it",)), preapproved_tools=())
    assert refused.value.details == {"dir": str(plain)}
    assert list(plain.iterdir()) == []
