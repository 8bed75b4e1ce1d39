"""``gz-ia profile`` / ``toolkit``: whole outputs, JSON and text, English and Spanish."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.profiles.conftest import write_profile, write_skill

Cli = Callable[..., Result]

TEXT = {
    "en": {
        "list": "NAME    DESCRIPTION  SKILLS  AGENTS FILE       SCOPE\n"
                "review  Code review  0       REVIEW-AGENTS.md  project\n",
        "created": "✓ Profile 'review' created.\n  Location: {dir}\n  File:     {file}\n",
        "empty": "✧ No profiles found (looked in {places}).\n",
        "skills": "SKILL       CATEGORY  SCOPE    DESCRIPTION\n"
                  "git-commit  git       project  writes commits\n",
        "warning": "Warning: skill '{path}' cannot be read: "
                   "the front matter has no 'description'\n",
        "not_found": "Error: profile 'nope' not found\ngz-ia profile list\n",
        "collision": "Error: profile collision: 'same' is defined by both '{a}' and '{b}'\n"
                     "rename one of them (the 'name' in its profile.json)\n",
    },
    "es": {
        "list": "NOMBRE  DESCRIPCIÓN  SKILLS  AGENTS FILE       ÁMBITO\n"
                "review  Code review  0       REVIEW-AGENTS.md  proyecto\n",
        "created": "✓ Perfil 'review' creado exitosamente.\n  Ubicación: {dir}\n"
                   "  Archivo:   {file}\n",
        "empty": "✧ No hay perfiles agénticos registrados (en {places}).\n",
        "skills": "SKILL       CATEGORÍA  ÁMBITO    DESCRIPCIÓN\n"
                  "git-commit  git        proyecto  writes commits\n",
        "warning": "Aviso: no se puede leer la skill '{path}': the front matter has no "
                   "'description'\n",
        "not_found": "Error: perfil 'nope' no encontrado\ngz-ia profile list\n",
        "collision": "Error: colisión de perfiles detectada: 'same' está definido en '{a}' y en "
                     "'{b}'\nrenombra uno de ellos (el 'name' de su profile.json)\n",
    },
}


def test_create_then_list_show_and_path_agree(
    cli: Cli, repo: Path, config_dir: Path, lang: str
) -> None:
    places = ", ".join(str(p) for p in (repo / ".harness/profiles", repo / "profiles",
                                        config_dir / "profiles"))
    assert cli("profile", "list", cwd=repo) == Result(
        0, TEXT[lang]["empty"].format(places=places), "")

    created = cli("profile", "create", "review", "--desc", "Code review", cwd=repo)
    directory = repo / ".harness/profiles/review"
    assert created == Result(0, TEXT[lang]["created"].format(
        dir=directory, file=directory / "REVIEW-AGENTS.md"), "")
    assert cli("profile", "path", cwd=repo).stdout == f"{directory.parent}\n"
    assert cli("profile", "path", "review", cwd=repo).stdout == f"{directory}\n"
    assert cli("toolkit", "list", cwd=repo) == Result(0, TEXT[lang]["list"], "")
    assert cli("profile", "show", "review", "--json", cwd=repo).json == {
        "ok": True, "errors": [], "warnings": [], "data": {
            "name": "review", "description": "Code review", "scope": "project",
            "path": str(directory), "agents_file": str(directory / "REVIEW-AGENTS.md"),
            "skills": [], "mcp_servers": {}, "env": {}}}


def test_global_create_and_path_agree(cli: Cli, repo: Path, config_dir: Path) -> None:
    assert cli("profile", "path", "--global", cwd=repo).stdout == f"{config_dir / 'profiles'}\n"
    created = cli("profile", "create", "mine", "--global", "--json", cwd=repo).json["data"]
    assert created["path"] == str(config_dir / "profiles" / "mine")
    assert created["scope"] == "global"
    again = cli("profile", "create", "mine", "--global", "--json", cwd=repo)
    assert again.exit_code == 1
    assert again.json["errors"][0]["code"] == "CONFLICT"
    assert again.json["errors"][0]["message"] == (
        f"profile 'mine' already exists in '{config_dir / 'profiles' / 'mine'}'")


def test_skills_and_their_warnings(cli: Cli, repo: Path, config_dir: Path, lang: str) -> None:
    write_skill(repo / "skills", "git-commit", "writes commits")
    bad = write_skill(repo / "skills", "nodesc", description=None) / "SKILL.md"

    assert cli("profile", "skills", cwd=repo) == Result(
        0, TEXT[lang]["skills"], TEXT[lang]["warning"].format(path=bad))
    document = cli("profile", "skills", "--json", cwd=repo).json
    assert document["data"] == {"skills": [{
        "name": "git-commit", "description": "writes commits", "category": "git",
        "scope": "project", "path": str(repo / "skills/git-commit")}]}
    assert document["warnings"] == [{
        "code": "SKILL_INVALID", "retryable": False, "hint": None,
        "message": TEXT[lang]["warning"].split(": ", 1)[1].format(path=bad).rstrip("\n"),
        "details": {"path": str(bad), "detail": "the front matter has no 'description'"}}]


def test_errors_not_found_collision_bad_name(
    cli: Cli, repo: Path, config_dir: Path, lang: str
) -> None:
    assert cli("profile", "show", "nope", cwd=repo) == Result(1, "", TEXT[lang]["not_found"])
    bad = cli("profile", "create", "../x", "--json", cwd=repo)
    assert (bad.exit_code, bad.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
    a = write_profile(repo / "profiles" / "a", {"name": "same"})
    b = write_profile(repo / "profiles" / "b", {"name": "same"})
    assert cli("profile", "list", cwd=repo) == Result(
        1, "", TEXT[lang]["collision"].format(a=a, b=b))


def test_a_malformed_profile_is_a_warning_in_the_list(
    cli: Cli, repo: Path, config_dir: Path
) -> None:
    write_profile(repo / "profiles" / "broken", "{")
    document = cli("profile", "list", "--json", cwd=repo).json
    assert document["data"] == {"profiles": []}
    assert [w["code"] for w in document["warnings"]] == ["PROFILE_INVALID"]
    used = cli("profile", "show", "broken", "--json", cwd=repo)
    assert used.exit_code == 2
    assert used.json["errors"][0]["code"] == "INVALID_INPUT"


@pytest.mark.parametrize("args", [["profile", "--help"], ["toolkit", "create", "--help"]])
def test_help_in_spanish(cli: Cli, args: list[str]) -> None:
    text = cli(*args, env={"GZ_LANG": "es"}).stdout
    assert "Uso:" in text
    assert json.dumps(text).count("Manage agent profiles") == 0


@pytest.mark.pyz
def test_the_zipapp_reads_skill_front_matter(
    run_pyz: Callable[..., Result], repo: Path, config_dir: Path
) -> None:
    """PyYAML travels inside the pyz: a folded description is read as YAML reads it."""
    write_skill(repo / "skills", "git-commit", raw="---\nname: git-commit\ndescription: >\n"
                "  writes\n  commits\n---\nbody\n")
    result = run_pyz("profile", "skills", "--json", cwd=repo)
    assert result.json["data"]["skills"][0]["description"] == "writes commits"
