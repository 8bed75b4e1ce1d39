"""gz-ia doctor: ready or not, always ok:true and exit 0."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

Cli = Callable[..., Result]


def test_ready_machine(cli: Cli) -> None:
    result = cli("doctor", "--json")
    assert result.exit_code == 0
    data = result.json["data"]
    assert result.json["ok"] is True
    assert data["ready"] is True
    checks = {c["name"]: c for c in data["checks"]}
    assert list(checks) == ["python", "git", "config", "plugins", "agents", "mcp", "sandbox",
                           "update"]
    assert checks["mcp"]["ok"] is True
    assert checks["mcp"]["detail"] == "MCP server can start (mcp SDK 2.3.0)"
    assert checks["update"]["ok"] is False
    assert checks["update"]["required"] is False


def test_missing_git_means_not_ready_but_exit_0(cli: Cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    result = cli("doctor", "--json", env={"PATH": str(empty)})
    assert result.exit_code == 0
    assert result.json["ok"] is True
    assert result.json["data"]["ready"] is False
    git = next(c for c in result.json["data"]["checks"] if c["name"] == "git")
    assert git == {"name": "git", "ok": False, "required": True,
                   "detail": "git not found on PATH", "fix": "install git 2.38 or newer"}
    human = cli("doctor", env={"PATH": str(empty), "GZ_LANG": "es"})
    assert human.exit_code == 0
    assert "✕ git      git no se encuentra en el PATH\n  → instala git 2.38 o posterior\n" \
        in human.stdout
    assert human.stdout.endswith("✕ gz-ia no está listo: corrige los puntos marcados con ✕\n")


def test_update_sources_configured(cli: Cli, tmp_path: Path) -> None:
    from tests.fakes.signing import MinisignKey

    key = MinisignKey.generate(tmp_path / "key")
    env = {"GZ_FORGEJO_API_URL": "https://forgejo.example/api/v1/repos/ops/gz-ia/tags",
           "GZ_UPDATE_PUBLIC_KEYS": str(key.pub)}
    checks = cli("doctor", "--json", env=env).json["data"]["checks"]
    assert checks[-1] == {"name": "update", "ok": True, "required": False,
                          "detail": "update sources: forgejo_api_url", "fix": None}


def test_a_source_without_a_trusted_key_is_reported_where_a_missing_source_is(cli: Cli) -> None:
    """A development install has no built-in key: a source alone cannot update."""
    env = {"GZ_FORGEJO_API_URL": "https://forgejo.example/api/v1/repos/ops/gz-ia/tags"}
    checks = cli("doctor", "--json", env=env).json["data"]["checks"]
    assert checks[-1] == {
        "name": "update", "ok": False, "required": False,
        "detail": "no trusted minisign public key: refusing to install an unverified release",
        "fix": "set GZ_UPDATE_PUBLIC_KEYS to the release public key (the base64 line of "
               "minisign.pub, or the path of that file)"}
    human = cli("doctor", env={**env, "GZ_LANG": "es"})
    assert ("! update   no hay ninguna clave pública minisign de confianza: no se instala una "
            "versión sin verificar\n  → define GZ_UPDATE_PUBLIC_KEYS con la clave pública de "
            "las versiones (la línea base64 de minisign.pub, o la ruta de ese archivo)\n"
            ) in human.stdout


def test_no_source_and_no_key_are_both_reported_source_first(cli: Cli, tmp_path: Path) -> None:
    """One look tells everything to set (a development install has no built-in key); with
    a key, only the source is missing."""
    from tests.fakes.signing import MinisignKey

    checks = cli("doctor", "--json").json["data"]["checks"]
    assert checks[-1] == {
        "name": "update", "ok": False, "required": False,
        "detail": "no update source configured, and no trusted minisign public key",
        "fix": "set GZ_NEXUS_SEARCH_URL or GZ_FORGEJO_API_URL, and GZ_UPDATE_PUBLIC_KEYS to "
               "the release public key (gz-ia config set ...)"}
    human = cli("doctor", env={"GZ_LANG": "es"})
    assert ("! update   no hay fuente de actualización configurada, ni ninguna clave pública "
            "minisign de confianza\n  → define GZ_NEXUS_SEARCH_URL o GZ_FORGEJO_API_URL, y "
            "GZ_UPDATE_PUBLIC_KEYS con la clave pública de las versiones (gz-ia config set ...)\n"
            ) in human.stdout
    key = MinisignKey.generate(tmp_path / "key")
    keyed = cli("doctor", "--json", env={"GZ_UPDATE_PUBLIC_KEYS": str(key.pub)})
    assert keyed.json["data"]["checks"][-1]["detail"] == "no update source configured"


def test_check_exits_1_when_not_ready_and_0_when_ready(cli: Cli, tmp_path: Path) -> None:
    """Readiness stays data.ready (ok: true, no errors); --check puts it in the exit code."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    plain = cli("doctor", "--json", env={"PATH": str(empty)})
    checked = cli("doctor", "--check", "--json", env={"PATH": str(empty)})
    assert (plain.exit_code, checked.exit_code) == (0, 1)
    assert checked.json == plain.json
    assert (checked.json["ok"], checked.json["errors"], checked.json["data"]["ready"]) == (
        True, [], False)
    human = cli("doctor", "--check", env={"PATH": str(empty), "GZ_LANG": "es"})
    assert (human.exit_code, human.stderr) == (1, "")
    assert human.stdout.endswith("✕ gz-ia no está listo: corrige los puntos marcados con ✕\n")
    assert cli("doctor", "--check").exit_code == 0


def test_unreadable_config_file_is_a_finding_not_a_crash(cli: Cli, tmp_path: Path) -> None:
    unreadable = tmp_path / "config.toml"
    unreadable.mkdir()  # root reads any file, so a directory stands in for an unreadable one
    env = {"GZ_CONFIG_FILE": str(unreadable)}
    result = cli("doctor", "--json", env=env)
    assert (result.exit_code, result.json["ok"], result.json["data"]["ready"]) == (0, True, False)
    config = next(c for c in result.json["data"]["checks"] if c["name"] == "config")
    assert config == {"name": "config", "ok": False, "required": True,
                      "detail": f"cannot read the configuration file {unreadable}: Is a directory",
                      "fix": f"fix or remove {unreadable}"}
    assert cli("config", "list", env={**env, "GZ_LANG": "es"}) == Result(
        1, "", f"Error: no se puede leer el archivo de configuración {unreadable}: "
               "Is a directory\n")
    envelope = cli("config", "list", "--json", env=env).json
    assert envelope["errors"][0]["code"] == "IO"
    assert envelope["errors"][0]["details"] == {"file": str(unreadable)}


def test_an_mcp_sdk_that_cannot_load_is_reported(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    # The SDK's compiled part built for another platform: pydantic-core will not load.
    shadow = tmp_path / "shadow" / "pydantic_core"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('pydantic_core for another platform')\n")
    for lang, detail, fix in [
        ("en", "MCP server cannot start: ImportError: pydantic_core for another platform",
         "reinstall gz-ia: its pyz for this platform and Python carries the MCP SDK"),
        ("es", "el servidor MCP no puede arrancar: ImportError: pydantic_core for another "
               "platform",
         "reinstala gz-ia: su pyz para esta plataforma y este Python incluye el SDK MCP"),
    ]:
        env = {**os.environ, "PYTHONPATH": str(shadow.parent), "GZ_LANG": lang}
        done = subprocess.run([sys.executable, "-m", "gzia", "doctor", "--json"], env=env,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)["data"]
        mcp = next(c for c in data["checks"] if c["name"] == "mcp")
        assert mcp == {"name": "mcp", "ok": False, "required": False, "detail": detail,
                       "fix": fix}
        assert data["ready"] is True  # optional: sessions still run without it


def test_the_agent_versions_line_comes_last_and_only_when_the_policy_names_agents(
        cli: Cli, tmp_path: Path) -> None:
    """Every check is one of doctor's checks, in one order: the release line (from the
    manifest 'update' cached), then the agents the administrator's policy names versions for;
    neither when there is nothing to say."""
    from gzia.update.manifest_cache import save_cached_manifest

    policy = tmp_path / "policy.toml"
    policy.write_text('[agents.claude]\nversion = ">=2.2"\n')
    save_cached_manifest({"schema": 1, "channel": "stable", "serial": 1, "version": "0.1.0",
                          "expires": "2099-01-01T00:00:00Z", "yanked": []})
    names = [c["name"] for c in cli("doctor", "--json", env={
        "GZ_POLICY_FILE": str(policy)}).json["data"]["checks"]]
    assert names[-3:] == ["update", "release", "agent_versions"]
    policy.write_text('update_check = "off"\n')
    assert "agent_versions" not in [c["name"] for c in cli("doctor", "--json", env={
        "GZ_POLICY_FILE": str(policy)}).json["data"]["checks"]]
    unreadable = tmp_path / "config.toml"
    unreadable.mkdir()
    policy.write_text('[agents.claude]\nversion = ">=2.2"\n')
    names = [c["name"] for c in cli("doctor", "--json", env={
        "GZ_POLICY_FILE": str(policy), "GZ_CONFIG_FILE": str(unreadable)}).json["data"]["checks"]]
    assert names[-2:] == ["update", "release"]  # 'config' says why: no agent line
