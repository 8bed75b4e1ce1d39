"""Settings: sources, the TOML file, environment overrides, secrets and errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.config import load_config
from gzia.contract import InvalidInputError
from gzia.settings import SETTINGS
from tests.conftest import Result

Cli = Callable[..., Result]


def config_file(home: Path) -> Path:
    return home / ".xdg-config" / "gz-ia" / "config.toml"


def test_every_value_knows_its_source(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text('kill_grace_ms = 250\ndefault_provider = "claude"\n')
    monkeypatch.setenv("GZ_DEFAULT_PROVIDER", "opencode")
    config = load_config()
    assert (config.value("kill_grace_ms").value, config.value("kill_grace_ms").source) == \
        (250, "file")
    assert (config.get("default_provider"), config.value("default_provider").source) == \
        ("opencode", "env")
    assert config.value("default_permission").source == "default"


def test_config_list_json(cli: Cli, isolated_env: Path) -> None:
    result = cli("config", "list", "--json", env={"GZ_NEXUS_PASSWORD": "s3cret"})
    settings = {s["key"]: s for s in result.json["data"]["settings"]}
    assert [s.key for s in SETTINGS] == list(settings)
    assert settings["nexus_password"] == {"key": "nexus_password", "value": "****",
                                          "source": "env", "env": "GZ_NEXUS_PASSWORD",
                                          "secret": True}
    assert "s3cret" not in result.stdout
    revealed = cli("config", "get", "nexus_password", "--reveal",
                   env={"GZ_NEXUS_PASSWORD": "s3cret"})
    assert revealed == Result(0, "s3cret\n", "")


def test_set_get_unset_round_trip(cli: Cli, isolated_env: Path) -> None:
    path = config_file(isolated_env)
    assert cli("config", "set", "kill_grace_ms", "300") == \
        Result(0, f"✓ kill_grace_ms = 300 (in {path})\n", "")
    assert path.read_text() == "kill_grace_ms = 300\n"
    assert cli("config", "get", "kill_grace_ms") == Result(0, "300\n", "")
    assert cli("config", "get", "kill_grace_ms", "--json").json["data"]["source"] == "file"
    cli("config", "set", "nexus_password", "pw")
    assert path.stat().st_mode & 0o077 == 0  # a file holding a secret is private
    assert cli("config", "unset", "kill_grace_ms").exit_code == 0
    assert cli("config", "get", "kill_grace_ms", "--json").json["data"]["source"] == "default"


def test_booleans_read_true_and_false_in_human_output(cli: Cli, isolated_env: Path) -> None:
    path = config_file(isolated_env)
    assert cli("config", "set", "allow_push", "yes") == \
        Result(0, f"✓ allow_push = true (in {path})\n", "")
    assert cli("config", "get", "allow_push") == Result(0, "true\n", "")
    assert cli("config", "get", "allow_push", env={"GZ_ALLOW_PUSH": "off"}) == \
        Result(0, "false\n", "")
    listed = cli("config", "list", env={"GZ_LANG": "es"}).stdout.splitlines()
    assert [line for line in listed if line.startswith("allow_push")] == [
        "allow_push            true                      file"]
    document = cli("config", "get", "allow_push", "--json").json["data"]
    assert (document["value"], document["source"]) == (True, "file")
    listed = cli("config", "list", "--json").json["data"]["settings"]
    assert [e["value"] for e in listed if e["key"] == "allow_push"] == [True]


@pytest.mark.parametrize(("env", "message"), [
    ({}, "Error: configuration file {file} is not valid TOML: "
         "Expected '=' after a key in a key/value pair (at line 2, column 8)\n"),
    ({"GZ_LANG": "es"}, "Error: el archivo de configuración {file} no es TOML válido: "
                        "Expected '=' after a key in a key/value pair (at line 2, column 8)\n"),
])
def test_malformed_file_names_file_and_line(
    cli: Cli, isolated_env: Path, env: dict[str, str], message: str
) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text("kill_grace_ms = 1\nbroken line\n")
    assert cli("config", "list", env=env) == Result(2, "", message.format(file=path))
    assert cli("version").exit_code == 0  # a broken file does not break unrelated commands
    envelope = cli("config", "list", "--json").json
    assert envelope["errors"][0]["details"] == {"file": str(path), "line": 2}


def test_unknown_key_and_bad_env_value(cli: Cli, isolated_env: Path) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text("colour = true\n")
    assert cli("config", "list").stderr == f"Error: unknown setting 'colour' in {path}\n"
    path.unlink()
    with pytest.raises(InvalidInputError) as raised:
        load_config({"GZ_KILL_GRACE_MS": "soon", "HOME": str(isolated_env)}).get("kill_grace_ms")
    assert raised.value.message == \
        "setting 'kill_grace_ms' from GZ_KILL_GRACE_MS must be an integer of at least 0, got 'soon'"


def test_truncated_file_names_its_last_line(cli: Cli, isolated_env: Path) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text("kill_grace_ms = 1\nlist = [\n")
    envelope = cli("config", "list", "--json").json
    assert envelope["errors"][0]["details"] == {"file": str(path), "line": 2}
    assert envelope["errors"][0]["message"] == (
        f"configuration file {path} is not valid TOML: Invalid value (at end of document)")


@pytest.mark.parametrize(("args", "env", "message"), [
    (["default_permission", "bogus"], {},
     "setting 'default_permission' must be one of readonly, supervised, autonomous, got 'bogus'"),
    (["default_permission", "bogus"], {"GZ_LANG": "es"},
     "el ajuste 'default_permission' debe ser uno de readonly, supervised, autonomous, "
     "se recibió 'bogus'"),
    (["kill_grace_ms", "--", "-5"], {},
     "setting 'kill_grace_ms' must be an integer of at least 0, got '-5'"),
    (["kill_grace_ms", "--", "-5"], {"GZ_LANG": "es"},
     "el ajuste 'kill_grace_ms' debe ser un número entero no menor que 0, se recibió '-5'"),
])
def test_set_refuses_values_the_commands_would_refuse(
    cli: Cli, isolated_env: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    assert cli("config", "set", *args, env=env) == Result(2, "", f"Error: {message}\n")
    assert not config_file(isolated_env).exists()
    result = cli("config", "get", "default_permission", "--json",
                 env={**env, "GZ_DEFAULT_PERMISSION": "autonomous"})
    assert result.json["data"]["value"] == "autonomous"


def test_paths_follow_overrides(cli: Cli, tmp_path: Path) -> None:
    env = {"GZ_CONFIG_FILE": str(tmp_path / "c.toml"), "GZ_DATA_DIR": str(tmp_path / "d"),
           "GZ_PLUGIN_PATH": f"{tmp_path / 'p1'}:{tmp_path / 'p2'}"}
    data = cli("config", "path", "--json", env=env).json["data"]
    assert data["config_file"] == str(tmp_path / "c.toml")
    assert data["data_dir"] == str(tmp_path / "d")
    assert data["plugin_dirs"] == [str(tmp_path / "p1"), str(tmp_path / "p2")]


def test_set_writes_through_a_symlinked_file(cli: Cli, isolated_env: Path) -> None:
    real = isolated_env / "dotfiles" / "gz-ia.toml"
    real.parent.mkdir()
    real.write_text("kill_grace_ms = 200\n")
    link = config_file(isolated_env)
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    assert cli("config", "set", "default_provider", "claude").exit_code == 0
    assert link.is_symlink()
    assert real.read_text() == 'default_provider = "claude"\nkill_grace_ms = 200\n'


def test_a_password_inside_a_url_is_masked_too(cli: Cli, isolated_env: Path) -> None:
    url = "https://ops:s3cr3t@nexus.example/service/rest/v1/search?repository=raw"
    env = {"GZ_NEXUS_SEARCH_URL": url}
    listing = cli("config", "list", env=env)
    assert "s3cr3t" not in listing.stdout
    assert "https://ops:****@nexus.example/service/rest/v1/search?repository=raw" \
        in listing.stdout
    entry = cli("config", "get", "nexus_search_url", "--json", env=env).json["data"]
    assert entry["value"] == "https://ops:****@nexus.example/service/rest/v1/search?repository=raw"
    assert cli("config", "get", "nexus_search_url", "--reveal", env=env).stdout == url + "\n"
    done = cli("config", "set", "forgejo_api_url", "https://ci:tok@forgejo.example/api/v1")
    assert "tok@" not in done.stdout and "ci:****@forgejo.example" in done.stdout


@pytest.mark.parametrize(("url", "shown"), [
    ("https://h.example/api/tags?token=SECRET&limit=5",
     "https://h.example/api/tags?token=****&limit=5"),
    ("https://h.example/s?repository=raw&access_token=SECRET#sig=SECRET",
     "https://h.example/s?repository=raw&access_token=****#sig=****"),
    ("https://h.example/s?X-Api-Key=SECRET;password=SECRET",
     "https://h.example/s?X-Api-Key=****;password=****"),
    ("https://SECRET@h.example/api", "https://****@h.example/api"),
    ("https://ops:SECRET@h.example/a?private_token=SECRET",
     "https://ops:****@h.example/a?private_token=****"),
])
def test_every_credential_in_a_url_is_masked(
    cli: Cli, isolated_env: Path, url: str, shown: str
) -> None:
    env = {"GZ_FORGEJO_API_URL": url}
    listing = cli("config", "list", env=env)
    assert "SECRET" not in listing.stdout
    assert f"forgejo_api_url       {shown} env\n" in listing.stdout
    assert cli("config", "get", "forgejo_api_url", env=env) == Result(0, f"{shown}\n", "")
    assert cli("config", "get", "forgejo_api_url", "--json", env=env).json["data"]["value"] \
        == shown
    assert cli("config", "get", "forgejo_api_url", "--reveal", env=env).stdout == f"{url}\n"
    file = config_file(isolated_env)
    stored = cli("config", "set", "forgejo_api_url", url)
    assert stored == Result(0, f"✓ forgejo_api_url = {shown} (in {file})\n", "")


@pytest.mark.parametrize(("env", "message"), [
    ({}, "Error: setting 'nexus_password' from {file} must be text, got '****'\n"),
    ({"GZ_LANG": "es"},
     "Error: el ajuste 'nexus_password' de {file} debe ser texto, se recibió '****'\n"),
])
def test_a_secret_of_the_wrong_type_is_not_echoed(
    cli: Cli, isolated_env: Path, env: dict[str, str], message: str
) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text("nexus_password = 12345\n")
    result = cli("config", "list", env=env)
    assert result == Result(2, "", message.format(file=path))
    envelope = cli("config", "list", "--json", env=env).json
    assert "12345" not in str(envelope)


def test_a_url_with_credentials_in_a_bad_value_is_masked(cli: Cli, isolated_env: Path) -> None:
    result = cli("config", "list", "--json",
                 env={"GZ_KILL_GRACE_MS": "https://u:SECRET@h/?token=SECRET"})
    assert result.json["errors"][0]["message"] == (
        "setting 'kill_grace_ms' from GZ_KILL_GRACE_MS must be an integer of at least 0, "
        "got 'https://u:****@h/?token=****'")


@pytest.mark.parametrize(("args", "env", "message"), [
    (["kill_grace_ms", "-5"], {},
     "setting 'kill_grace_ms' must be an integer of at least 0, got '-5'"),
    (["update_timeout", "0"], {}, "setting 'update_timeout' must be a number greater than 0, "
                                  "got '0'"),
    (["update_timeout", "-1.5"], {"GZ_LANG": "es"},
     "el ajuste 'update_timeout' debe ser un número mayor que 0, se recibió '-1.5'"),
    (["update_timeout", "inf"], {}, "setting 'update_timeout' must be a number greater than 0, "
                                    "got 'inf'"),
    (["default_provider", "nosuch"], {},
     "setting 'default_provider' must be one of agy, claude, opencode, pi-agent, shell, "
     "got 'nosuch'"),
    (["default_provider", "nosuch"], {"GZ_LANG": "es"},
     "el ajuste 'default_provider' debe ser uno de agy, claude, opencode, pi-agent, shell, "
     "se recibió 'nosuch'"),
])
def test_set_validates_type_range_and_provider(
    cli: Cli, isolated_env: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    assert cli("config", "set", *args, env=env) == Result(2, "", f"Error: {message}\n")
    assert not config_file(isolated_env).exists()


def test_set_stores_valid_values(cli: Cli, isolated_env: Path) -> None:
    file = config_file(isolated_env)
    assert cli("config", "set", "default_provider", "shell").exit_code == 0
    assert cli("config", "set", "update_timeout", "2.5", "--json").json["data"]["value"] == 2.5
    assert file.read_text() == 'default_provider = "shell"\nupdate_timeout = 2.5\n'


@pytest.mark.parametrize(("env", "origin"), [
    ({"GZ_DEFAULT_PROVIDER": "nosuch"}, "GZ_DEFAULT_PROVIDER"),
    ({}, "{file}"),
])
def test_a_configured_unknown_provider_names_key_and_source(
    cli: Cli, isolated_env: Path, tmp_path: Path, env: dict[str, str], origin: str
) -> None:
    path = config_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_text('default_provider = "nosuch"\n')
    result = cli("chat", "-d", str(tmp_path), "--json", env=env)
    assert result.exit_code == 2
    assert result.json["errors"][0]["message"] == (
        f"setting 'default_provider' from {origin.format(file=path)} must be one of agy, "
        "claude, opencode, pi-agent, shell, got 'nosuch'")
    assert result.json["errors"][0]["details"] == {
        "key": "default_provider", "origin": origin.format(file=path)}
