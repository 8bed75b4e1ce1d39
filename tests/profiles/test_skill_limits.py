"""Hostile skill front matter and profile files: each one a warning (``SKILL_INVALID``,
``PROFILE_INVALID``) in bounded memory and time, while the others still load
(docs/profiles.md, "Limits")."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gzia.profiles.catalog import load_catalog, locations
from gzia.profiles.front_matter import MAX_BYTES, MAX_DEPTH, MAX_NODES
from tests.bounded_child import gz_bounded
from tests.profiles.conftest import write_profile, write_skill

BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prior}' if prior else 'lol'] * 9)}]\n"
    for prior, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True))
"""Nine lists of nine aliases to the one before: 9**9 values, ~600 bytes."""
MERGE_BOMB = "m0: &m0 {k0: v, k1: v, k2: v, k3: v, k4: v, k5: v, k6: v, k7: v}\n" + "".join(
    f"m{i}: &m{i} {{{', '.join(f'n{j}: *m{i - 1}' for j in range(8))}}}\n" for i in range(1, 10))

HOSTILE = {
    "alias-bomb": f"---\n{BOMB}name: alias-bomb\ndescription: *i\n---\n",
    "bomb-name": f"---\n{BOMB}name: *i\ndescription: d\n---\n",
    "deep-block": "---\nname: deep-block\ndescription: d\nx:\n  " + "- " * 5000 + "x\n---\n",
    "deep-flow": "---\nname: deep-flow\ndescription: " + "[" * 5000 + "]" * 5000 + "\n---\n",
    "deep-map": "---\nname: deep-map\ndescription: d\nx: " + "{a: " * 3000 + "}" * 3000
                + "\n---\n",
    "huge": "---\nname: huge\ndescription: " + "x" * (20 * MAX_BYTES) + "\n---\n",
    "merge-bomb": f"---\n{MERGE_BOMB}name: merge-bomb\ndescription: d\n---\n",
}
DETAIL = {
    "values": f"the front matter holds more than {MAX_NODES} values with its aliases expanded",
    "depth": f"the front matter nests deeper than {MAX_DEPTH} levels",
    "bytes": f"the front matter is larger than {MAX_BYTES} bytes",
}
EXPECTED = [("alias-bomb", "values"), ("bomb-name", "values"), ("deep-block", "depth"),
            ("deep-flow", "depth"), ("deep-map", "depth"),
            ("huge", "bytes"), ("merge-bomb", "values")]
KEYS = {"values": "skill_too_many_values", "depth": "skill_too_deep", "bytes": "skill_too_large"}
LIMITS = {"values": MAX_NODES, "depth": MAX_DEPTH, "bytes": MAX_BYTES}
MESSAGES = {
    "en": {"values": f"its front matter holds more than {MAX_NODES} values with its aliases "
                     "expanded",
           "depth": f"its front matter nests deeper than {MAX_DEPTH} levels",
           "bytes": f"its front matter is larger than {MAX_BYTES} bytes"},
    "es": {"values": f"su front matter contiene más de {MAX_NODES} valores con sus alias "
                     "expandidos",
           "depth": f"su front matter anida más de {MAX_DEPTH} niveles",
           "bytes": f"su front matter ocupa más de {MAX_BYTES} bytes"},
}
WARNING = {"en": "Warning: skill '{path}' cannot be read: {message}",
           "es": "Aviso: no se puede leer la skill '{path}': {message}"}
TABLE = {"en": "SKILL  CATEGORY  SCOPE    DESCRIPTION\ngood   good      project  still loads\n",
         "es": "SKILL  CATEGORÍA  ÁMBITO    DESCRIPCIÓN\ngood   good       proyecto  still loads\n"}


def _write_hostile(root: Path) -> None:
    for name, raw in HOSTILE.items():
        write_skill(root, name, raw=raw)
    write_skill(root, "good", "still loads")


def test_every_hostile_skill_is_a_warning_in_bounded_memory_and_time(
        repo: Path, config_dir: Path, lang: str) -> None:
    _write_hostile(repo / "skills")

    started = time.monotonic()
    human = gz_bounded("profile", "skills", cwd=repo, timeout=30)
    document = gz_bounded("profile", "skills", "--json", cwd=repo, timeout=30)
    assert time.monotonic() - started < 30

    paths = {name: repo / "skills" / name / "SKILL.md" for name in HOSTILE}
    assert (human.returncode, human.stdout) == (0, TABLE[lang])
    assert human.stderr == "".join(
        WARNING[lang].format(path=paths[name], message=MESSAGES[lang][kind]) + "\n"
        for name, kind in EXPECTED)
    assert document.returncode == 0
    assert json.loads(document.stdout) == {
        "ok": True, "errors": [],
        "data": {"skills": [{"name": "good", "description": "still loads", "category": "good",
                             "scope": "project", "path": str(repo / "skills/good")}]},
        "warnings": [{
            "code": "SKILL_INVALID", "retryable": False, "hint": None,
            "message": WARNING["en" if lang == "en" else "es"].split(": ", 1)[1].format(
                path=paths[name], message=MESSAGES[lang][kind]),
            "details": {"path": str(paths[name]), "detail": DETAIL[kind],
                        "limit": LIMITS[kind]},
        } for name, kind in EXPECTED]}


def _depth(levels: int) -> str:
    """A front matter nesting ``levels`` collections: the mapping and lists in it."""
    lists = levels - 1
    return f"---\nname: edge\ndescription: d\nx: {'[' * lists}x{']' * lists}\n---\n"


def _values(total: int) -> str:
    """A front matter of exactly ``total`` values: the mapping, its keys and values, two
    lists and their items, one of them counted again through an alias."""
    aliased, single = divmod(total - 11, 2)
    return (f"---\nname: edge\ndescription: d\nl: &l [{', '.join(['i'] * aliased)}]\n"
            f"m: *l\nk: [{', '.join(['i'] * single)}]\n---\n")


@pytest.mark.parametrize(("raw", "detail"), [
    (_depth(MAX_DEPTH), None), (_depth(MAX_DEPTH + 1), DETAIL["depth"]),
    (_values(MAX_NODES), None), (_values(MAX_NODES + 1), DETAIL["values"]),
])
def test_the_limits_are_exact(repo: Path, config_dir: Path, raw: str,
                              detail: str | None) -> None:
    write_skill(repo / "skills", "edge", raw=raw)
    catalog = load_catalog(locations(repo))
    if detail is None:
        assert (list(catalog.skills), catalog.notices) == (["edge"], [])
    else:
        assert [n.params["detail"] for n in catalog.notices] == [detail]


def test_front_matter_of_exactly_the_limit_is_read(repo: Path, config_dir: Path) -> None:
    head = "---\nname: edge\ndescription: "
    filler = "x" * (MAX_BYTES - len(head) - len("\n---\n"))
    write_skill(repo / "skills", "edge", raw=f"{head}{filler}\n---\n" + "body\n" * 100_000)
    write_skill(repo / "skills", "over", raw=f"{head}{filler}x\n---\n")
    catalog = load_catalog(locations(repo))
    assert list(catalog.skills) == ["edge"]
    assert [n.params["detail"] for n in catalog.notices] == [DETAIL["bytes"]]


def test_a_name_that_is_not_a_string_is_never_printed(repo: Path, config_dir: Path) -> None:
    write_skill(repo / "skills", "listed", raw="---\nname: [a, b]\ndescription: d\n---\n")
    catalog = load_catalog(locations(repo))
    assert [n.params["detail"] for n in catalog.notices] == [
        "invalid name: a list, not a string"]


def test_a_profile_file_nested_too_deeply_is_a_notice(repo: Path, config_dir: Path) -> None:
    write_profile(repo / "profiles" / "deep", "[" * 100_000 + "]" * 100_000)
    write_profile(repo / "profiles" / "fine", {"name": "fine", "description": "d"})
    catalog = load_catalog(locations(repo))
    assert list(catalog.profiles) == ["fine"]
    assert [(n.code, n.params) for n in catalog.notices] == [("PROFILE_INVALID", {
        "path": str(repo / "profiles" / "deep"), "detail": "the profile file nests too deeply"})]
