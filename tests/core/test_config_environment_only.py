"""The settings read from the environment alone (the language, GZ_DEBUG, which plugins
load, the original's GZ_NEXUS_BASE_URL) are in the one settings table: `config list`
shows each with its source, and no file may hold them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.config import INTERNAL_VARIABLES, PATH_VARIABLES, debug_requested
from gzia.settings import SETTINGS
from tests.conftest import Result

Cli = Callable[..., Result]
GZIA = Path(__file__).parents[2] / "gzia"
ENVIRONMENT = {"GZ_LANG": "es_ES.UTF-8", "GZ_DEBUG": "1", "GZ_DISABLE_PLUGINS": "demo",
               "GZ_NEXUS_BASE_URL": "https://user:pw@nexus.example/repository/raw/gz-ia"}


def _listed(cli: Cli, env: dict[str, str]) -> dict[str, tuple[object, str]]:
    data = cli("config", "list", "--json", env=env).json["data"]
    return {s["key"]: (s["value"], s["source"]) for s in data["settings"]
            if s["env"] in ENVIRONMENT}


def test_config_list_shows_each_with_its_source(cli: Cli, isolated_env: Path) -> None:
    assert _listed(cli, {}) == {"nexus_base_url": (None, "default"), "language": (None, "default"),
                                "debug": (False, "default"),
                                "disable_plugins": (None, "default")}
    assert _listed(cli, ENVIRONMENT) == {
        "nexus_base_url": ("https://user:****@nexus.example/repository/raw/gz-ia", "env"),
        "language": ("es_ES.UTF-8", "env"), "debug": (True, "env"),
        "disable_plugins": ("demo", "env")}


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Error: setting 'debug' is read from the environment only: set GZ_DEBUG\n"),
    ("es", "Error: el ajuste 'debug' solo se lee del entorno: define GZ_DEBUG\n"),
])
def test_no_file_holds_one(cli: Cli, isolated_env: Path, lang: str, message: str) -> None:
    env = {"GZ_LANG": lang}
    assert cli("config", "set", "debug", "true", env=env) == Result(2, "", message)
    refused = cli("--json", "config", "unset", "language", env=env).json["errors"][0]
    assert (refused["code"], refused["details"]) == (
        "INVALID_INPUT", {"key": "language", "variable": "GZ_LANG"})
    file = isolated_env / ".xdg-config" / "gz-ia" / "config.toml"
    file.parent.mkdir(parents=True)
    file.write_text("debug = true\n")
    assert cli("config", "list", env=env) == Result(2, "", message)


@pytest.mark.parametrize(("value", "asked"), [
    ("", False), ("0", False), ("false", False), (" Off ", False), ("no", False),
    ("1", True), ("true", True), ("yes", True), ("2", True)])
def test_debug_is_read_cheaply_as_the_table_says(value: str, asked: bool) -> None:
    assert debug_requested({"GZ_DEBUG": value}) is asked


def test_every_gz_variable_the_code_names_is_a_setting_a_path_or_internal() -> None:
    named = {name for source in GZIA.rglob("*.py")
             for name in re.findall(r"[\"'](GZ_[A-Z_]+)[\"']", source.read_text("utf-8"))}
    known = {s.env for s in SETTINGS} | set(PATH_VARIABLES) | set(INTERNAL_VARIABLES)
    internal_prefixes = tuple(v.rstrip("*") for v in INTERNAL_VARIABLES if v.endswith("*"))
    assert {n for n in named if n not in known and not n.startswith(internal_prefixes)} == set()
    assert {"GZ_LANG", "GZ_DEBUG", "GZ_DISABLE_PLUGINS", "GZ_NEXUS_BASE_URL"} <= named
