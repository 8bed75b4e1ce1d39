from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import ErrorCode, InvalidInputError, NotFoundError, classify
from gzia.i18n import N_, gettext
from gzia.sessions.ids import new_session_id, validate_session_id, validate_session_ref
from gzia.sessions.project import find_project
from tests.sessions.session_testkit import make_repo, run_git


def test_new_ids_are_8_lowercase_hex_and_differ() -> None:
    ids = {new_session_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(validate_session_id(i) == i for i in ids)


@pytest.mark.parametrize(
    "raw", ["../../etc", "abcdef0", "abcdef012", "abcdefgh", "ab/def01", "", "..", "abcd ef0"]
)
def test_invalid_ids_are_usage_errors(raw: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        validate_session_id(raw)
    assert classify(caught.value) == (2, ErrorCode.INVALID_INPUT)
    assert caught.value.details == {"id": raw}


def test_a_very_long_id_is_cut_where_it_is_echoed(cli: Any, tmp_path: Path) -> None:
    raw = "a" * 5000
    result = cli("session", "show", raw, "-d", str(tmp_path), "--json")
    assert result.exit_code == 2
    [error] = result.json["errors"]
    shown = "a" * 40 + "…"
    assert error["details"] == {"id": shown, "length": 5000}
    assert error["message"] == (f"invalid session id '{shown}': expected 8 hexadecimal "
                                "characters, or a unique prefix of 4 or more")
    human = cli("session", "show", raw, "-d", str(tmp_path), env={"GZ_LANG": "es"})
    assert human.stderr == (f"Error: id de sesión inválido '{shown}': se esperan 8 caracteres "
                            "hexadecimales, o un prefijo único de 4 o más\ngz-ia session list\n")
    assert len(human.stderr) < 200


def test_ids_are_normalised_to_lowercase() -> None:
    assert validate_session_id("ABCDEF01") == "abcdef01"
    assert validate_session_ref("AbCd") == "abcd"
    with pytest.raises(InvalidInputError):
        validate_session_ref("abc")


def test_project_root_is_the_git_top_level_from_a_subdirectory(repo: Path) -> None:
    sub = repo / "a" / "b"
    sub.mkdir(parents=True)
    project = find_project(sub)
    assert (project.root, project.is_git) == (repo, True)
    assert project.git_common_dir == repo / ".git"
    assert project.sessions_dir == repo / ".harness" / "sessions"


def test_project_from_inside_a_linked_worktree_is_the_main_worktree(repo: Path) -> None:
    linked = repo / ".harness" / "worktrees" / "abcdef01"
    run_git(repo, "worktree", "add", "-q", "-b", "harness/abcdef01", str(linked))
    (linked / "deep").mkdir()
    assert find_project(linked / "deep").root == repo
    outside = repo.parent / "elsewhere"
    run_git(repo, "worktree", "add", "-q", "-b", "other", str(outside))
    assert find_project(outside).root == repo


def test_separate_git_dir_never_resolves_to_the_git_dir(tmp_path: Path) -> None:
    """git itself cannot name the main worktree here; the linked worktree is used."""
    main = tmp_path / "main"
    main.mkdir()
    run_git(main, "init", "-q", "-b", "main", f"--separate-git-dir={tmp_path / 'store.git'}")
    (main / "f").write_text("x")
    run_git(main, "add", "f")
    run_git(main, "commit", "-q", "-m", "one")
    linked = tmp_path / "linked"
    run_git(main, "worktree", "add", "-q", "-b", "x", str(linked))
    assert find_project(linked).root == linked
    assert find_project(main).root == main


def test_non_git_directory_is_its_own_project(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    project = find_project(plain)
    assert (project.root, project.is_git, project.git_common_dir) == (plain, False, None)


@pytest.mark.parametrize("where", ["repo", "repo/sub", "plain"])
def test_without_git_installed_a_repository_is_an_error_never_direct(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "sub").mkdir()
    (tmp_path / "plain").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty-path"))
    from gzia.sessions import git

    git.git_installed.cache_clear()
    try:
        if where == "plain":  # outside any repository: its own project, as before
            project = find_project(tmp_path / where)
            assert (project.root, project.is_git) == (tmp_path / "plain", False)
            return
        with pytest.raises(NotFoundError) as caught:
            find_project(tmp_path / where)
    finally:
        git.git_installed.cache_clear()
    assert caught.value.message == (
        f"git is not installed (not found on PATH), and '{tmp_path / where}' is in the git "
        f"repository {repo}: its sessions need git")
    assert caught.value.hint == "install git 2.38 or newer"
    assert caught.value.details == {"dir": str(tmp_path / where), "root": str(repo)}


def test_missing_directory_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError):
        find_project(tmp_path / "nope")


def test_git_variables_from_a_calling_hook_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo")
    other = make_repo(tmp_path / "other")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert find_project(repo).root == repo
    assert subprocess.run(["git", "rev-parse", "--git-dir"], cwd=repo, capture_output=True,
                          text=True, env=os.environ, check=True).stdout.strip() == str(
        other / ".git")


def test_disk_lookup_agrees_with_git(repo: Path, tmp_path: Path) -> None:
    from gzia.sessions.project import _locate_in_git, _locate_on_disk

    linked = repo / ".harness" / "worktrees" / "abcdef01"
    run_git(repo, "worktree", "add", "-q", "-b", "harness/abcdef01", str(linked))
    outside = tmp_path / "outside"
    run_git(repo, "worktree", "add", "-q", "-b", "outside", str(outside))
    (repo / "sub" / "deeper").mkdir(parents=True)
    for start in (repo, repo / "sub" / "deeper", linked, outside):
        assert _locate_on_disk(start) == _locate_in_git(start), start


def test_unusual_places_are_left_to_git(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gzia.sessions.project import _ASK_GIT, _locate_on_disk

    assert _locate_on_disk(repo / ".git" / "hooks") is _ASK_GIT
    assert find_project(repo / ".git" / "hooks") == find_project(repo)  # its main worktree
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo))
    assert _locate_on_disk(repo / "x") is _ASK_GIT


def test_inside_a_git_dir_the_project_is_the_main_worktree(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    run_git(repo, "worktree", "add", "-q", "-b", "linked", str(linked))
    expected = find_project(repo)
    for inside in (".git", ".git/refs", ".git/refs/heads", ".git/worktrees/linked"):
        assert find_project(repo / inside) == expected, inside


def test_a_bare_repository_is_refused_wherever_inside_it(repo: Path, tmp_path: Path) -> None:
    from gzia.sessions.project import _ASK_GIT, _locate_on_disk

    bare = tmp_path / "bare"  # no .git anywhere in its path: found on disk by its layout
    run_git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    assert _locate_on_disk(bare) is _ASK_GIT
    for start in (bare, bare / "refs" / "heads", bare / "objects"):
        with pytest.raises(InvalidInputError) as caught:
            find_project(start)
        assert caught.value.key == N_("'{dir}' is inside the bare git repository {git_dir}, which "
                                      "has no work tree for sessions to run in")
        assert caught.value.details == {"dir": str(start), "git_dir": str(bare), "bare": True}
        assert classify(caught.value) == (2, ErrorCode.INVALID_INPUT)
    assert not any(bare.rglob(".harness"))


def test_a_git_dir_whose_work_tree_git_cannot_name_is_refused(tmp_path: Path) -> None:
    """``--separate-git-dir``: the store knows no work tree; direct mode would write in it."""
    work = tmp_path / "work"
    work.mkdir()
    store = tmp_path / "store.git"
    run_git(work, "init", "-q", f"--separate-git-dir={store}")
    with pytest.raises(InvalidInputError) as caught:
        find_project(store / "refs")
    assert caught.value.key == N_("'{dir}' is inside git's own directory {git_dir}, and gz-ia "
                                  "cannot tell which work tree it belongs to; sessions never run "
                                  "inside a git directory")
    assert caught.value.details == {"dir": str(store / "refs"), "git_dir": str(store),
                                    "bare": False}

    assert gettext("'{dir}' is inside git's own directory {git_dir}, and gz-ia cannot tell which "
                   "work tree it belongs to; sessions never run inside a git directory",
                   **caught.value.params) == (
        f"'{store / 'refs'}' is inside git's own directory {store}, and gz-ia cannot tell "
        "which work tree it belongs to; sessions never run inside a git directory")
    assert find_project(work).root == work


def test_the_separate_git_dir_refusal_in_spanish_and_json(cli: Any, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    store = tmp_path / "store.git"
    run_git(work, "init", "-q", f"--separate-git-dir={store}")
    result = cli("session", "list", "-d", str(store), env={"GZ_LANG": "es"})
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"Error: '{store}' está dentro del propio directorio de git {store} y gz-ia no puede "
        "saber a qué árbol de trabajo pertenece; las sesiones nunca se ejecutan dentro de un "
        "directorio de git\n"
        "ejecuta gz-ia desde el árbol de trabajo del repositorio, o indícalo con "
        "-d <árbol de trabajo>\n")
    [error] = cli("session", "list", "--json", "-d", str(store)).json["errors"]
    assert (error["code"], error["hint"]) == (
        "INVALID_INPUT", "run gz-ia from the repository's work tree, or name it with "
        "-d <work tree>")
    assert not any(store.rglob(".harness"))
