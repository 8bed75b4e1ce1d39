"""gz-ia exec run from inside git's own directory: the main worktree, or a clear refusal.

Never a direct-mode agent working in ``.git`` and never a ``.harness/`` inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import git

Gz = Callable[..., Result]
PRINT_CWD = "import os\nprint(os.getcwd())\n"


def harness_dirs_inside(directory: Path) -> list[Path]:
    return sorted(path for path in directory.rglob(".harness"))


@pytest.fixture
def linked(repo: Path, tmp_path: Path) -> Path:
    """A linked worktree, so ``.git/worktrees/<name>`` exists too."""
    path = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "linked", str(path))
    return path


@pytest.mark.parametrize("inside", [".git", ".git/refs", ".git/worktrees/linked"])
def test_exec_from_inside_the_git_dir_runs_in_the_main_worktrees_project(
    gz: Gz, agent: Any, repo: Path, linked: Path, inside: str
) -> None:
    agent("where", PRINT_CWD)
    result = gz("--json", "exec", "--", "where", cwd=repo / inside)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    worktree = repo / ".harness" / "worktrees" / record["id"]
    assert (record["working_dir"], record["is_isolated"], record["worktree_dir"]) == (
        str(repo), True, str(worktree))
    assert f"{worktree}\n" in result.stderr  # the agent ran in the session's worktree
    assert (repo / ".harness" / "sessions" / f"{record['id']}.json").is_file()
    assert harness_dirs_inside(repo / ".git") == []
    assert harness_dirs_inside(linked) == []


@pytest.mark.parametrize(("lang", "first_line"), [
    ("en", "❯❯ Running where in session {id} (Workspace: Isolated worktree "
           "(.harness/worktrees/{id}))..."),
    ("es", "❯❯ Ejecutando where en la sesión {id} (Espacio de trabajo: Worktree aislado "
           "(.harness/worktrees/{id}))..."),
])
def test_exec_from_the_git_dir_human_output(
    gz: Gz, agent: Any, repo: Path, lang: str, first_line: str
) -> None:
    agent("where", PRINT_CWD)
    result = gz("exec", "--", "where", cwd=repo / ".git" / "refs", env={"GZ_LANG": lang})

    assert result.exit_code == 0, result.stderr
    [session_id] = [p.name for p in (repo / ".harness" / "worktrees").iterdir()]
    assert result.stderr.splitlines()[0] == first_line.format(id=session_id)
    assert result.stdout == f"{repo / '.harness' / 'worktrees' / session_id}\n"
    assert harness_dirs_inside(repo / ".git") == []


@pytest.fixture
def bare(repo: Path, tmp_path: Path) -> Path:
    path = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(path))
    return path


BARE_ERRORS = {
    "en": ("Error: '{dir}' is inside the bare git repository {git_dir}, which has no work "
           "tree for sessions to run in\n"
           "run gz-ia in a clone or a worktree of it (git -C {git_dir} worktree add <path>)\n"),
    "es": ("Error: '{dir}' está dentro del repositorio git bare {git_dir}, que no tiene árbol "
           "de trabajo donde ejecutar sesiones\n"
           "ejecuta gz-ia en un clon o en un worktree suyo "
           "(git -C {git_dir} worktree add <ruta>)\n"),
}


@pytest.mark.parametrize("inside", ["", "refs"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_exec_in_a_bare_repository_is_refused_in_both_languages(
    gz: Gz, agent: Any, bare: Path, inside: str, lang: str
) -> None:
    agent("where", PRINT_CWD)
    start = bare / inside if inside else bare
    before = sorted(bare.rglob("*"))
    result = gz("exec", "--", "where", cwd=start, env={"GZ_LANG": lang})

    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == BARE_ERRORS[lang].format(dir=start, git_dir=bare)
    assert sorted(bare.rglob("*")) == before


def test_exec_in_a_bare_repository_json(gz: Gz, agent: Any, bare: Path) -> None:
    agent("where", PRINT_CWD)
    result = gz("--json", "exec", "--", "where", cwd=bare / "refs")

    assert result.exit_code == 2
    assert result.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "INVALID_INPUT", "retryable": False,
        "message": f"'{bare / 'refs'}' is inside the bare git repository {bare}, which has no "
                   "work tree for sessions to run in",
        "hint": f"run gz-ia in a clone or a worktree of it (git -C {bare} worktree add <path>)",
        "details": {"dir": str(bare / "refs"), "git_dir": str(bare), "bare": True},
    }]}
    assert harness_dirs_inside(bare) == []
    listed = gz("--json", "session", "list", cwd=bare)
    assert (listed.exit_code, listed.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
