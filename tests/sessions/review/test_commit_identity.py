"""Without a git identity, the commits gz-ia makes for a session in ``session update``
and ``session push`` are made as gz-ia <gz-ia@localhost>, and each says so once
(``NO_GIT_IDENTITY``), as ``merge`` does; with an identity, nothing is said."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from tests.conftest import Result
from tests.sessions.review.conftest import SID
from tests.sessions.session_testkit import commit_file, run_git

Cli = Callable[..., Result]
NO_IDENTITY = {"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": ""}
HINT = ("set yours: git config --global user.name 'Your Name' && git config --global "
        "user.email you@example.com")


def _forget_identity(home: Path) -> None:
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")


@pytest.mark.parametrize("command", [["update"], ["push"], ["push", "--squash"]])
def test_commits_made_as_gz_ia_are_said_once(cli: Cli, project: Project, session: Path,
                                             isolated_env: Path, command: list[str]) -> None:
    commit_file(project.root, "upstream.txt", "upstream\n", "main moves on")
    _forget_identity(isolated_env)
    result = cli("--json", "session", command[0], SID, *command[1:], "-d", str(project.root),
                 env=NO_IDENTITY)
    assert result.exit_code == 0, result.stdout
    assert result.json["warnings"] == [{
        "code": "NO_GIT_IDENTITY", "retryable": False, "hint": HINT,
        "message": f"git has no user.name/user.email here: gz-ia committed the work of session "
                   f"'{SID}' as gz-ia <gz-ia@localhost>; {HINT}",
        "details": {"id": SID, "name": "gz-ia", "email": "gz-ia@localhost"}}]
    author = run_git(session, "log", "-1", "--format=%an <%ae>", f"harness/{SID}").strip()
    if command != ["push", "--squash"]:  # the squash commit is pushed, not kept here
        assert author == "gz-ia <gz-ia@localhost>"


def test_spanish_and_nothing_said_with_an_identity(cli: Cli, project: Project, session: Path,
                                                   isolated_env: Path) -> None:
    commit_file(project.root, "upstream.txt", "upstream\n", "main moves on")
    with_identity = cli("session", "update", SID, "-d", str(project.root), env=NO_IDENTITY)
    assert (with_identity.exit_code, with_identity.stderr) == (0, "")
    _forget_identity(isolated_env)
    (session / "more.txt").write_text("more\n")
    spanish = cli("session", "push", SID, "-d", str(project.root),
                  env={**NO_IDENTITY, "GZ_LANG": "es"})
    assert spanish.exit_code == 0, spanish.stderr
    assert spanish.stderr == (
        f"Aviso: git no tiene user.name/user.email aquí: gz-ia confirmó el trabajo de la sesión "
        f"'{SID}' como gz-ia <gz-ia@localhost>; configura la tuya: git config --global "
        "user.name 'Tu Nombre' && git config --global user.email tu@ejemplo.com\n")
