"""Finding profiles and skills: search order, both file names, collisions, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from gzia.contract import ConflictError, InvalidInputError, NotFoundError
from gzia.i18n import N_
from gzia.profiles.catalog import load_catalog, locations
from gzia.profiles.model import Notice
from tests.profiles.conftest import write_profile, write_skill


def test_profiles_from_every_place_with_english_and_spanish_keys(
    repo: Path, config_dir: Path
) -> None:
    write_profile(repo / ".harness" / "profiles" / "a", {"name": "review", "description": "R",
                  "skills": ["lint"], "mcp_servers": {"docs": {"command": "docs-mcp"}},
                  "env": {"TOKEN": "${GH_TOKEN}"}}, agents={"REVIEW-AGENTS.md": "Be strict.\n"})
    write_profile(repo / "profiles" / "b", {"nombre": "pruebas", "descripcion": "P",
                  "mcpServers": {"web": {"url": "http://127.0.0.1:9/mcp"}}}, file="perfil.json")
    write_profile(config_dir / "profiles" / "mine", {})

    catalog = load_catalog(locations(repo))

    assert {n: p.to_json() for n, p in catalog.profiles.items()} == {
        "review": {"name": "review", "description": "R", "scope": "project",
                   "path": str(repo / ".harness/profiles/a"),
                   "agents_file": str(repo / ".harness/profiles/a/REVIEW-AGENTS.md"),
                   "skills": ["lint"], "mcp_servers": {"docs": {"command": "docs-mcp"}},
                   "env": {"TOKEN": "${GH_TOKEN}"}},
        "pruebas": {"name": "pruebas", "description": "P", "scope": "project",
                    "path": str(repo / "profiles/b"), "agents_file": None, "skills": [],
                    "mcp_servers": {"web": {"url": "http://127.0.0.1:9/mcp"}}, "env": {}},
        "mine": {"name": "mine", "description": "", "scope": "global",
                 "path": str(config_dir / "profiles/mine"), "agents_file": None, "skills": [],
                 "mcp_servers": {}, "env": {}},
    }
    assert catalog.notices == []


def test_the_first_place_wins_and_the_shadowed_one_is_reported(
    repo: Path, config_dir: Path
) -> None:
    write_profile(repo / "profiles" / "x", {"name": "x", "description": "project"})
    write_profile(config_dir / "profiles" / "x", {"name": "x", "description": "global"})

    catalog = load_catalog(locations(repo))

    assert catalog.profile("x").description == "project"
    assert catalog.notices == [Notice("PROFILE_SHADOWED",
                                      N_("profile '{name}' in '{shadowed}' is hidden by the one in "
                                         "'{winner}'"), {
        "name": "x", "winner": str(repo / "profiles/x"),
        "shadowed": str(config_dir / "profiles/x")})]


def test_two_profiles_of_one_name_in_one_place_are_an_error(repo: Path, config_dir: Path) -> None:
    write_profile(repo / "profiles" / "one", {"name": "same"})
    write_profile(repo / "profiles" / "two", {"nombre": "same"})

    with pytest.raises(ConflictError) as raised:
        load_catalog(locations(repo))

    assert raised.value.details == {"name": "same", "paths": [
        str(repo / "profiles/one"), str(repo / "profiles/two")]}


@pytest.mark.parametrize(("document", "detail"), [
    ("{not json", "profile.json: Expecting property name enclosed in double quotes: "
                  "line 1 column 2 (char 1)"),
    ("[]", "profile.json: not a JSON object"),
    ('{"name": "bad name"}', "invalid name 'bad name'"),
    ('{"skills": "lint"}', "'skills' must be a list of skill names"),
    ('{"env": {"A": 1}}', "'env' must map variable names to strings"),
    ('{"env": {"1A": "x"}}', "'env' must map variable names to strings"),
    ('{"mcp_servers": {"s": {"args": []}}}',
     "MCP server 's': needs 'command' (with 'args' strings) or 'url'"),
    ('{"agents_file": "../x.md"}', "'agents_file' must be a relative path inside the profile"),
    ('{"agents_file": "missing.md"}', "agents file 'missing.md' not found"),
    ('{"description": 3}', "'description' must be a string"),
])
def test_a_malformed_profile_is_a_notice_and_an_error_when_used(
    repo: Path, config_dir: Path, document: str, detail: str
) -> None:
    write_profile(repo / "profiles" / "broken", document)
    write_profile(repo / "profiles" / "fine", {})

    catalog = load_catalog(locations(repo))

    assert list(catalog.profiles) == ["fine"]
    notice = Notice("PROFILE_INVALID", N_("profile in '{path}' cannot be read: {detail}"),
                    {"path": str(repo / "profiles/broken"), "detail": detail})
    assert catalog.notices == [notice]
    with pytest.raises(InvalidInputError) as raised:
        catalog.profile("broken")
    assert raised.value.details == notice.params


def test_unknown_and_invalid_names(repo: Path, config_dir: Path) -> None:
    catalog = load_catalog(locations(repo))
    with pytest.raises(NotFoundError):
        catalog.profile("nope")
    with pytest.raises(InvalidInputError):
        catalog.profile("../etc")


def test_skills_later_places_win_and_bad_ones_are_notices(repo: Path, config_dir: Path) -> None:
    write_skill(config_dir / "skills", "git-commit", "global commit")
    write_skill(config_dir / ".skills", "lint", "global lint")
    write_skill(repo / ".harness" / "skills", "lint", "project lint")
    write_skill(repo / "skills", "docs", "multi\n  line", raw="---\nname: docs\ndescription: >\n"
                "  folded\n  text\n---\nbody\n")
    write_skill(repo / ".skills", "broken", raw="---\nname: [unclosed\n---\n")
    write_skill(repo / ".skills", "bare", raw="no front matter\n")
    write_skill(repo / ".skills", "nodesc", description=None)
    (repo / ".skills" / "not-a-skill").mkdir()

    catalog = load_catalog(locations(repo))

    assert [s.to_json() for s in catalog.skills.values()] == [
        {"name": "git-commit", "description": "global commit", "category": "git",
         "scope": "global", "path": str(config_dir / "skills/git-commit")},
        {"name": "lint", "description": "project lint", "category": "lint",
         "scope": "project", "path": str(repo / ".harness/skills/lint")},
        {"name": "docs", "description": "folded text", "category": "docs",
         "scope": "project", "path": str(repo / "skills/docs")},
    ]
    assert [(n.code, Path(n.params["path"]).parent.name) for n in catalog.notices] == [
        ("SKILL_INVALID", "bare"), ("SKILL_INVALID", "broken"), ("SKILL_INVALID", "nodesc")]
    assert catalog.notices[0].params["detail"] == (
        "no YAML front matter (the file must start with '---')")
    assert catalog.notices[2].params["detail"] == "the front matter has no 'description'"
    assert catalog.notices[1].params["detail"].startswith("while parsing a flow sequence")
