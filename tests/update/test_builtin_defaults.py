"""An organisation's build: defaults embedded as the ``built-in`` configuration layer, and the
original's ``GZ_NEXUS_BASE_URL`` mapped to a search URL (or reported by ``doctor``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.update.settings import search_url_from_base
from tests.conftest import Result
from tests.fakes.nexus import NexusFake
from tests.update.conftest import pyz_reports

Cli = Callable[..., Result]


@pytest.fixture
def builtin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where this install's embedded defaults file is (none there yet)."""
    path = tmp_path / "built-in" / "defaults.toml"
    path.parent.mkdir()
    monkeypatch.setattr("gzia.setting_values.BUILTIN_DEFAULTS", path)
    return path


def sources(result: Result) -> dict[str, tuple[object, str]]:
    assert result.exit_code == 0, result.stderr
    return {e["key"]: (e["value"], e["source"]) for e in result.json["data"]["settings"]}


def test_built_in_values_sit_between_the_defaults_and_the_file(
    cli: Cli, builtin: Path, isolated_env: Path
) -> None:
    builtin.write_text('nexus_search_url = "https://nexus.example/s"\nupdate_timeout = 60\n'
                       'forgejo_api_url = "https://forgejo.example/t"\n')
    config_file = isolated_env / "config" / "config.toml"
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text('update_timeout = 90\n')

    found = sources(cli("config", "list", "--json", env={
        "GZ_CONFIG_FILE": str(config_file), "GZ_FORGEJO_API_URL": "https://mine.example/t"}))

    assert found["nexus_search_url"] == ("https://nexus.example/s", "built-in")
    assert found["update_timeout"] == (90.0, "file")
    assert found["forgejo_api_url"] == ("https://mine.example/t", "env")
    assert found["kill_grace_ms"] == (100, "default")
    human = cli("config", "list", env={"GZ_CONFIG_FILE": str(config_file)})
    assert "nexus_search_url      https://nexus.example/s   built-in\n" in human.stdout


def test_without_an_embedded_file_nothing_is_built_in(cli: Cli, builtin: Path) -> None:
    found = sources(cli("config", "list", "--json"))
    assert {source for _, source in found.values()} == {"default"}


def test_a_bad_embedded_file_is_named(cli: Cli, builtin: Path) -> None:
    builtin.write_text("update_timeout = 'soon'\n")
    result = cli("config", "list", "--json")
    assert result.exit_code == 2
    [error] = result.json["errors"]
    assert error["code"] == "INVALID_INPUT"
    assert error["message"] == (
        f"setting 'update_timeout' from the built-in defaults ({builtin}) must be a number "
        "greater than 0, got 'soon'")
    assert error["details"] == {"key": "update_timeout", "origin": "built-in",
                                "file": str(builtin)}


@pytest.mark.parametrize(("env", "message"), [
    ({}, "setting 'default_provider' from the built-in defaults ({file}) must be one of agy, "
         "claude, opencode, pi-agent, shell, got 'nosuch'"),
    ({"GZ_LANG": "es"}, "el ajuste 'default_provider' de los valores predeterminados "
                        "integrados ({file}) debe ser uno de agy, claude, opencode, pi-agent, "
                        "shell, se recibió 'nosuch'"),
], ids=["en", "es"])
def test_a_built_in_unknown_provider_names_the_built_in_defaults(
    cli: Cli, builtin: Path, tmp_path: Path, env: dict[str, str], message: str
) -> None:
    builtin.write_text('default_provider = "nosuch"\n')
    result = cli("chat", "-d", str(tmp_path), "--json", env=env)
    assert result.exit_code == 2
    [error] = result.json["errors"]
    assert error["message"] == message.format(file=builtin)
    assert error["details"] == {"key": "default_provider", "origin": "built-in",
                                "file": str(builtin)}


def test_update_uses_the_built_in_nexus_with_nothing_set(
    cli: Cli, builtin: Path, nexus: NexusFake, releases: Callable[..., dict[str, bytes]],
    update_cli: Cli, target: Path,
) -> None:
    nexus.publish(releases("2.0.0"), "2.0.0")
    builtin.write_text(f'nexus_search_url = "{nexus.search_url()}"\n')

    result = update_cli("update", "--json")

    assert result.exit_code == 0, result.stdout + result.stderr
    assert (result.json["data"]["source"], result.json["data"]["version"]) == ("nexus", "2.0.0")
    assert pyz_reports(target) == "gz-ia 2.0.0"


@pytest.mark.parametrize(("base", "search"), [
    ("https://nexus.example/repository/go-releases/gz-ia",
     "https://nexus.example/service/rest/v1/search/assets?repository=go-releases"),
    ("https://nexus.example:8443/nexus/repository/raw%20one/tools/gz-ia/",
     "https://nexus.example:8443/nexus/service/rest/v1/search/assets?repository=raw+one"),
    ("http://127.0.0.1:8081/repository/gz-ia/gz-ia",
     "http://127.0.0.1:8081/service/rest/v1/search/assets?repository=gz-ia"),
    ("https://nexus.example/repository/go-releases", None),  # not the gz-ia directory
    ("https://nexus.example/content/go-releases/gz-ia", None),  # not a raw repository path
    ("https://nexus.example/repository/r/gz-ia?x=1", None),
    ("ftp://nexus.example/repository/r/gz-ia", None),
    ("https://nexus.example:99999/repository/r/gz-ia", None),
    ("", None),
])
def test_the_original_base_url_maps_to_a_search_url(base: str, search: str | None) -> None:
    assert search_url_from_base(base) == search


def test_update_through_the_original_base_url(
    nexus: NexusFake, releases: Callable[..., dict[str, bytes]], update_cli: Cli, target: Path,
) -> None:
    nexus.publish(releases("2.0.0"), "2.0.0")
    assert nexus.server is not None
    env = {"GZ_NEXUS_BASE_URL": f"{nexus.server.url}/repository/gz-ia/gz-ia"}

    result = update_cli("update", "--json", env=env)

    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.json["data"]["source"] == "nexus"
    assert nexus.server.requests_to("/service/rest/v1/search/assets")


def test_the_search_url_in_the_environment_wins_over_the_base_url(
    nexus: NexusFake, releases: Callable[..., dict[str, bytes]], update_cli: Cli,
) -> None:
    nexus.publish(releases("2.0.0"), "2.0.0")
    env = {"GZ_NEXUS_SEARCH_URL": nexus.search_url(),
           "GZ_NEXUS_BASE_URL": "https://nexus.invalid/repository/other/gz-ia"}

    result = update_cli("update", "--check", "--json", env=env)

    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.json["data"]["latest"] == "2.0.0"


def test_doctor_counts_a_mapped_base_url_and_names_an_unusable_one(
        cli: Cli, keys_env: dict[str, str]) -> None:
    mapped = {"GZ_NEXUS_BASE_URL": "https://nexus.example/repository/go-releases/gz-ia",
              **keys_env}  # a trusted key: else doctor names the missing key
    unusable = {"GZ_NEXUS_BASE_URL": "https://nexus.example/downloads/gz-ia"}

    ok = cli("doctor", "--json", env=mapped).json["data"]["checks"][-1]
    english = cli("doctor", "--json", env=unusable).json["data"]["checks"][-1]
    spanish = cli("doctor", "--json", env={**unusable, "GZ_LANG": "es"}).json["data"]["checks"]

    assert ok == {"name": "update", "ok": True, "required": False,
                  "detail": "update sources: nexus_search_url", "fix": None}
    assert english == {
        "name": "update", "ok": False, "required": False,
        "detail": "GZ_NEXUS_BASE_URL cannot be used: it is not "
                  "<nexus>/repository/<repository>/gz-ia, so no search URL follows from it",
        "fix": "set GZ_NEXUS_SEARCH_URL (<nexus>/service/rest/v1/search/assets"
               "?repository=<repository>) and unset GZ_NEXUS_BASE_URL",
    }
    assert spanish[-1]["detail"] == (
        "GZ_NEXUS_BASE_URL no se puede usar: no es <nexus>/repository/<repositorio>/gz-ia, "
        "así que no se deduce de ella una URL de búsqueda")
    assert spanish[-1]["fix"] == (
        "define GZ_NEXUS_SEARCH_URL (<nexus>/service/rest/v1/search/assets"
        "?repository=<repositorio>) y elimina GZ_NEXUS_BASE_URL")
