"""``gz-ia update`` end to end, in-process, against real fake registries on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gzia.i18n import N_
from gzia.update.platform import platform_tag
from tests.conftest import Result
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.releases import pyz_name, standin_pyz_bytes
from tests.update.conftest import forgejo_env, nexus_env, previous_of, pyz_reports


def _sums_digest(files: dict[str, bytes]) -> str:
    return files["SHA256SUMS"].decode().split()[0]


def test_happy_path_via_nexus_over_https(nexus_tls: NexusFake, releases, update_cli,
                                        target: Path, tls_ca_file: Path, shiv_root: Path):
    nexus_tls.publish(releases("1.5.0"), "1.5.0")
    nexus_tls.publish(releases("2.0.0"), "2.0.0")
    old_bytes = target.read_bytes()
    stale = shiv_root / "gz-ia.pyz_0ld"
    stale.mkdir(exist_ok=True)
    result = update_cli("update", "--json", env={**nexus_env(nexus_tls),
                                                 "SSL_CERT_FILE": str(tls_ca_file)})
    assert result.exit_code == 0, result.stderr
    assert result.json == {"ok": True, "data": {
        "current": "1.0.0", "version": "2.0.0", "source": "nexus", "newer": True,
        "updated": True, "dry_run": False, "verified": True, "path": str(target),
        "previous": str(previous_of(target))}, "errors": [], "warnings": []}
    assert pyz_reports(target) == "gz-ia 2.0.0"
    assert previous_of(target).read_bytes() == old_bytes
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]
    assert not stale.exists()
    agents = {r.headers.get("user-agent") for r in nexus_tls.server.requests}
    assert agents == {"gz-ia/1.0.0"}


def test_human_output_english_and_spanish(nexus: NexusFake, releases, update_cli, target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    english = update_cli("update", env=nexus_env(nexus))
    assert english.exit_code == 0
    assert english.stdout == f"✓ gz-ia updated successfully to v2.0.0 in {target}\n"
    assert english.stderr == "↻ Downloading and installing gz-ia v2.0.0...\n"
    spanish = update_cli("update", "--check", env={**nexus_env(nexus), "GZ_LANG": "es"},
                         installed="2.0.0")
    assert spanish.stdout == ("❯ Versión actual: v2.0.0\n✧ Versión remota: v2.0.0 (nexus)\n"
                              "✓ gz-ia ya se encuentra en la versión más reciente (v2.0.0)\n")


def test_check_changes_nothing_and_reports_newer(nexus: NexusFake, releases, update_cli,
                                                  target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    before = target.read_bytes()
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    assert result.exit_code == 0
    assert result.json["data"] == {"current": "1.0.0", "latest": "2.0.0", "source": "nexus",
                                   "newer": True}
    assert target.read_bytes() == before
    # nothing downloaded: only the channel manifest was looked for (none is published)
    assert [r.path for r in nexus.server.requests_to("/repository/")] == [
        "/repository/gz-ia/gz-ia/channels/stable.json"]
    human = update_cli("update", "--check", env=nexus_env(nexus))
    assert human.stdout == ("❯ Current version: v1.0.0\n✧ Remote version: v2.0.0 (nexus)\n"
                            "⚡ A new version is available (v2.0.0). "
                            "Run 'gz-ia update' to install it.\n")


def test_nexus_down_falls_back_to_forgejo(nexus: NexusFake, forgejo: ForgejoFake, releases,
                                          update_cli, target):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    nexus.server.go_down()
    result = update_cli("update", "--json", env={**nexus_env(nexus), **forgejo_env(forgejo)})
    assert result.exit_code == 0, result.stdout
    document = result.json
    assert document["data"]["source"] == "forgejo"
    [warning] = document["warnings"]
    assert warning["code"] == "NETWORK"
    assert warning["message"].startswith(
        f"Nexus failed: cannot connect to 127.0.0.1:{nexus.server.port}: ")
    assert warning["message"].endswith("; trying Forgejo")
    assert pyz_reports(target) == "gz-ia 2.0.0"


@pytest.mark.parametrize("fault", [
    {"kind": "status", "status": 503}, {"kind": "status", "status": 404},
    {"kind": "bad_json"}, {"kind": "status", "status": 401},
])
def test_any_nexus_failure_falls_back(nexus: NexusFake, forgejo: ForgejoFake, releases,
                                      update_cli, fault):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    nexus.publish(releases("3.0.0"), "3.0.0")
    kind = fault.pop("kind")
    nexus.server.inject(kind, "/service/rest/", **fault)
    result = update_cli("update", "--check", "--json",
                        env={**nexus_env(nexus), **forgejo_env(forgejo)})
    assert result.exit_code == 0
    assert result.json["data"]["latest"] == "2.0.0"
    reason = result.json["warnings"][0]["message"]
    host = f"127.0.0.1:{nexus.server.port}"
    expected = (f"{host} sent an invalid JSON document" if kind == "bad_json"
                else f"{host} answered HTTP {fault['status']}")
    assert reason == f"Nexus failed: {expected}; trying Forgejo"


def test_both_down_is_network_error_naming_both(dead_url, update_cli):
    env = {"GZ_NEXUS_SEARCH_URL": f"{dead_url}/service/rest/v1/search/assets?repository=x",
           "GZ_FORGEJO_API_URL": f"{dead_url}/api/v1/repos/ops/gz-ia/tags"}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 1
    [error] = result.json["errors"]
    host = dead_url.removeprefix("http://")
    assert error["code"] == "NETWORK" and error["retryable"] is True
    assert error["message"].startswith(f"could not check for updates (Nexus: cannot connect to "
                                       f"{host}: ")
    assert f"; Forgejo: cannot connect to {host}: " in error["message"]
    spanish = update_cli("update", env={**env, "GZ_LANG": "es"})
    assert spanish.exit_code == 1
    assert "Error: error al verificar actualizaciones (Nexus: no se pudo conectar con" \
        in spanish.stderr


def test_no_source_configured_is_a_configuration_error(update_cli):
    result = update_cli("update", "--check", "--json")
    assert result.exit_code == 2
    assert result.json["errors"] == [{
        "code": "INVALID_INPUT", "retryable": False,
        "message": "no release source is configured: neither GZ_NEXUS_SEARCH_URL nor "
                   "GZ_FORGEJO_API_URL is set",
        "hint": "set GZ_NEXUS_SEARCH_URL and/or GZ_FORGEJO_API_URL (see docs/update.md)",
        "details": {"reasons": {"nexus": "GZ_NEXUS_SEARCH_URL is not set",
                                "forgejo": "GZ_FORGEJO_API_URL is not set"}}}]
    assert result.json["warnings"] == []
    spanish = update_cli("update", env={"GZ_LANG": "es"})
    assert spanish == Result(2, "", (
        "Error: no hay ninguna fuente de versiones configurada: no está definida "
        "GZ_NEXUS_SEARCH_URL ni GZ_FORGEJO_API_URL\n"
        "define GZ_NEXUS_SEARCH_URL y/o GZ_FORGEJO_API_URL (ver docs/update.md)\n"))


def test_the_missing_source_is_named_before_the_missing_key(cli, target, monkeypatch):
    """Neither a source nor a trusted key: the source comes first (the key matters only
    once there is something to verify); a source without a key names the key."""
    monkeypatch.setattr(sys, "argv", [str(target)])
    result = cli("update", "--json")
    assert (result.exit_code, result.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
    assert result.json["errors"][0]["message"] == (
        "no release source is configured: neither GZ_NEXUS_SEARCH_URL nor GZ_FORGEJO_API_URL "
        "is set")
    keyless = cli("update", "--json", env={"GZ_FORGEJO_API_URL": "https://127.0.0.1:9/tags"})
    assert (keyless.exit_code, keyless.json["errors"][0]["code"]) == (1, "INTEGRITY")
    assert keyless.json["errors"][0]["message"] == (
        "no trusted minisign public key: refusing to install an unverified release")


def test_a_version_no_source_publishes_is_not_found(nexus: NexusFake, forgejo: ForgejoFake,
                                                    releases, update_cli, target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    forgejo.publish("v2.0.0", releases("2.0.0"))
    before = target.read_bytes()
    env = {**nexus_env(nexus), **forgejo_env(forgejo)}
    result = update_cli("update", "--version", "9.9.9", "--json", env=env)
    assert result.exit_code == 1
    platform = platform_tag()
    reason = f"no complete release of version 9.9.9 for {platform}"
    assert result.json["errors"] == [{
        "code": "NOT_FOUND", "retryable": False,
        "message": f"version 9.9.9 is not published for {platform} in Nexus nor Forgejo",
        "hint": "'gz-ia update --check' shows the newest published version",
        "details": {"version": "9.9.9", "platform": platform, "sources": ["nexus", "forgejo"],
                    "reasons": {"nexus": reason, "forgejo": reason}}}]
    assert target.read_bytes() == before
    spanish = update_cli("update", "--version", "9.9.9", env={**env, "GZ_LANG": "es"})
    assert spanish.exit_code == 1
    assert spanish.stderr.splitlines()[1] == (
        f"Error: la versión 9.9.9 no está publicada para {platform} ni en Nexus ni en Forgejo")


def test_not_found_names_only_the_sources_that_answered(forgejo: ForgejoFake, releases,
                                                        update_cli):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    result = update_cli("update", "--version", "3.0.0", "--json", env=forgejo_env(forgejo))
    [error] = result.json["errors"]
    assert (result.exit_code, error["code"]) == (1, "NOT_FOUND")
    assert error["message"] == f"version 3.0.0 is not published for {platform_tag()} in Forgejo"


def test_a_repository_with_nothing_published_is_not_found(forgejo: ForgejoFake, update_cli):
    result = update_cli("update", "--check", "--json", env=forgejo_env(forgejo))
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "NOT_FOUND", "retryable": False, "hint": None,
        "message": f"no gz-ia release is published for {platform_tag()} in Forgejo",
        "details": {"version": None, "platform": platform_tag(), "sources": ["forgejo"],
                    "reasons": {"nexus": "GZ_NEXUS_SEARCH_URL is not set",
                                "forgejo": "no published tags in the repository"}}}]
    spanish = update_cli("update", "--check", env={**forgejo_env(forgejo), "GZ_LANG": "es"})
    assert spanish == Result(1, "", "Error: no hay ninguna versión de gz-ia publicada para "
                                    f"{platform_tag()} en Forgejo\n")


def test_a_missing_version_with_one_source_down_stays_retryable(
    nexus: NexusFake, dead_url, releases, update_cli
):
    nexus.publish(releases("2.0.0"), "2.0.0")
    env = {**nexus_env(nexus), "GZ_FORGEJO_API_URL": f"{dead_url}/api/v1/repos/o/g/tags"}
    result = update_cli("update", "--version", "3.0.0", "--json", env=env)
    [error] = result.json["errors"]
    assert (result.exit_code, error["code"], error["retryable"]) == (1, "NETWORK", True)


def test_nexus_pagination_through_empty_pages(nexus: NexusFake, releases, update_cli):
    nexus.page_size = 2
    for index in range(5):
        nexus.put("gz-ia", f"noise/{index}", b"n")  # hidden after paging: empty pages
    nexus.hide = ["noise/"]
    for version in ("1.1.0", "2.1.0", "1.9.0"):
        nexus.publish(releases(version), version)
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus))
    assert result.json["data"]["latest"] == "2.1.0"
    tokens = [r.arg("continuationToken") for r in nexus.server.requests_to("/service/")]
    # 14 items in pages of 2: the last full page is followed by an empty one
    assert tokens == [None, "2", "4", "6", "8", "10", "12", "14"]


def test_forgejo_pagination_orders_by_version_not_server(forgejo: ForgejoFake, releases,
                                                        update_cli):
    forgejo.publish("v9.0.0", releases("9.0.0"))  # oldest by date: last page
    for index in range(60):
        forgejo.publish(f"v1.0.{index}", {"notes.txt": b"-"})
    result = update_cli("update", "--check", "--json", env=forgejo_env(forgejo))
    assert result.json["data"] == {"current": "1.0.0", "latest": "9.0.0",
                                   "source": "forgejo", "newer": True}
    pages = [r.arg("page") for r in forgejo.server.requests_to("/api/v1/repos/ops/gz-ia/tags")]
    assert pages == ["1", "2"]


def test_forgejo_pages_smaller_than_asked_are_followed(forgejo: ForgejoFake, releases,
                                                      update_cli):
    forgejo.max_limit = 20  # an admin lowered MAX_RESPONSE_ITEMS: every page is "short"
    forgejo.publish("v9.0.0", releases("9.0.0"))  # oldest by date: last page
    for index in range(45):
        forgejo.publish(f"v1.0.{index}", {"notes.txt": b"-"})
    result = update_cli("update", "--check", "--json", env=forgejo_env(forgejo))
    assert result.json["data"]["latest"] == "9.0.0"
    pages = [r.arg("page") for r in forgejo.server.requests_to("/api/v1/repos/ops/gz-ia/tags")]
    assert pages == ["1", "2", "3"]


def test_prerelease_and_draft_skipped(forgejo: ForgejoFake, releases, update_cli):
    forgejo.tokens["writer"] = {"login": "ci", "write": True}  # a token that sees drafts
    forgejo.publish("v2.0.0", releases("2.0.0"))
    forgejo.publish("v2.5.0", releases("2.5.0"), prerelease=True)
    forgejo.publish("v3.0.0-rc.1", releases("3.0.0-rc.1"))
    forgejo.publish("v4.0.0", releases("4.0.0"), draft=True)
    env = {**forgejo_env(forgejo), "GZ_FORGEJO_TOKEN": "writer"}
    stable = update_cli("update", "--check", "--json", env=env)
    assert stable.json["data"]["latest"] == "2.0.0"
    pre = update_cli("update", "--check", "--pre", "--json", env=env)
    assert pre.json["data"]["latest"] == "3.0.0-rc.1"
    auth = {r.headers.get("authorization") for r in forgejo.server.requests}
    assert auth == {"token writer"}


def test_release_missing_a_file_is_skipped(nexus: NexusFake, releases, update_cli, target):
    complete = releases("1.5.0")
    nexus.publish(complete, "1.5.0")
    for missing in ("SHA256SUMS", "SHA256SUMS.minisig", pyz_name("2.0.0")):
        files = releases("2.0.0")
        del files[missing]
        nexus.repos["gz-ia"] = {k: v for k, v in nexus.repos["gz-ia"].items()
                                if not k.startswith("gz-ia/2.0.0/")}
        nexus.publish(files, "2.0.0")
        result = update_cli("update", "--check", "--json", env=nexus_env(nexus))
        assert result.json["data"]["latest"] == "1.5.0", missing
    other_platform = releases("3.0.0", platform="plan9-mips")
    nexus.publish(other_platform, "3.0.0")
    assert update_cli("update", "--check", "--json",
                      env=nexus_env(nexus)).json["data"]["latest"] == "1.5.0"


def test_nexus_quirks_orient_paths_legacy_checksums_components(nexus: NexusFake, releases,
                                                               update_cli, target):
    nexus.style, nexus.checksums, nexus.file_size, nexus.duplicate_keys = \
        "orient", "legacy", False, True
    nexus.publish(releases("2.0.0"), "2.0.0")
    result = update_cli("update", "--json", env=nexus_env(nexus, assets=False))
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_nexus_basic_auth(nexus: NexusFake, releases, update_cli, target):
    nexus.users = {"reader": "pa55"}
    nexus.anonymous_read = False
    nexus.publish(releases("2.0.0"), "2.0.0")
    env = {**nexus_env(nexus), "GZ_NEXUS_USER": "reader", "GZ_NEXUS_PASSWORD": "pa55"}
    result = update_cli("update", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"
    wrong = update_cli("update", "--check", "--json",
                       env={**env, "GZ_NEXUS_PASSWORD": "nope"})
    assert wrong.exit_code == 1
    assert "answered HTTP 401" in wrong.json["errors"][0]["message"]
    assert "nope" not in wrong.stdout + wrong.stderr


def test_downgrade_refused_unless_allowed(nexus: NexusFake, releases, update_cli, target):
    nexus.publish(releases("1.0.0"), "1.0.0")
    nexus.publish(releases("0.9.0"), "0.9.0")
    before = target.read_bytes()
    refused = update_cli("update", "--version", "0.9.0", "--json", env=nexus_env(nexus),
                         installed="1.0.0")
    assert refused.exit_code == 1
    assert refused.json["errors"] == [{
        "code": "SAFETY_BLOCK", "message": "refusing to downgrade from v1.0.0 to v0.9.0",
        "retryable": False, "hint": "add --allow-downgrade to install an older version",
        "details": {"version": "0.9.0", "current": "1.0.0"}}]
    assert target.read_bytes() == before
    allowed = update_cli("update", "--version", "0.9.0", "--allow-downgrade", "--json",
                         env=nexus_env(nexus))
    assert allowed.exit_code == 0 and allowed.json["data"]["updated"] is True
    assert pyz_reports(target) == "gz-ia 0.9.0"


def test_up_to_date_changes_nothing_unless_forced(nexus: NexusFake, releases, update_cli,
                                                  target):
    rebuilt = standin_pyz_bytes("1.0.0", padding=4096)  # same version, other bytes
    nexus.publish(releases("1.0.0", payload=rebuilt), "1.0.0")
    before = target.read_bytes()
    same = update_cli("update", env=nexus_env(nexus))
    assert same.exit_code == 0
    assert same.stdout == "✓ gz-ia is already at the latest version (v1.0.0)\n"
    assert target.read_bytes() == before
    forced = update_cli("update", "--force", "--json", env=nexus_env(nexus))
    assert forced.json["data"]["updated"] is True
    assert target.read_bytes() == rebuilt


def test_dry_run_downloads_and_verifies_but_changes_nothing(nexus: NexusFake, releases,
                                                            update_cli, target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    before = target.read_bytes()
    result = update_cli("update", "--dry-run", "--json", env=nexus_env(nexus))
    assert result.exit_code == 0
    assert result.json["data"]["verified"] is True and result.json["data"]["updated"] is False
    assert target.read_bytes() == before
    assert not previous_of(target).exists()


def test_not_running_from_a_pyz(nexus: NexusFake, releases, update_cli, tmp_path):
    nexus.publish(releases("2.0.0"), "2.0.0")
    script = tmp_path / "gz-ia"
    script.write_text("#!/usr/bin/env python3\n")
    result = update_cli("update", "--json", env=nexus_env(nexus), argv0=script)
    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "NOT_FOUND"
    assert result.json["errors"][0]["hint"].startswith("upgrade it with the tool that")
    assert not nexus.server.requests  # explained before any network
    check = update_cli("update", "--check", "--json", env=nexus_env(nexus), argv0=script)
    assert check.exit_code == 0 and check.json["data"]["latest"] == "2.0.0"


def test_rollback_swaps_back_and_forth(nexus: NexusFake, releases, update_cli, target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    assert update_cli("update", env=nexus_env(nexus)).exit_code == 0
    back = update_cli("update", "rollback", "--json")
    assert back.exit_code == 0
    assert back.json["data"] == {"path": str(target), "version": "1.0.0",
                                 "previous": str(previous_of(target)), "replaced": "2.0.0"}
    assert pyz_reports(target) == "gz-ia 1.0.0"
    assert pyz_reports(previous_of(target)) == "gz-ia 2.0.0"
    forth = update_cli("update", "rollback")
    assert forth.stdout == f"✓ gz-ia rolled back to v2.0.0 in {target}\n"
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_the_previous_file_is_no_command_on_path(nexus: NexusFake, releases, update_cli,
                                                target):
    """Installed as ~/.local/bin/gz-ia, a "gz-ia.previous" beside it would be a command;
    the kept file is hidden (a dot-file in the same directory: renames stay atomic)."""
    nexus.publish(releases("2.0.0"), "2.0.0")
    assert update_cli("update", env=nexus_env(nexus)).exit_code == 0
    visible = [p.name for p in target.parent.iterdir() if not p.name.startswith(".")]
    assert visible == ["gz-ia.pyz"]
    assert target.with_name(".gz-ia.pyz.previous").is_file()


def test_rollback_finds_the_previous_file_of_an_older_version(update_cli, target):
    """Files updated by older versions keep ``gz-ia.pyz.previous``: rollback swaps it in,
    and keeps the replaced file hidden; nothing runnable by name stays."""
    from tests.fakes.releases import make_standin_pyz

    legacy = target.with_name("gz-ia.pyz.previous")
    make_standin_pyz(legacy, "0.9.0")
    back = update_cli("update", "rollback", "--json")
    assert back.exit_code == 0, back.stderr
    assert back.json["data"] == {"path": str(target), "version": "0.9.0",
                                 "previous": str(previous_of(target)), "replaced": "1.0.0"}
    assert pyz_reports(target) == "gz-ia 0.9.0"
    assert pyz_reports(previous_of(target)) == "gz-ia 1.0.0"
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]


def test_an_update_removes_an_older_version_previous_file(nexus: NexusFake, releases,
                                                          update_cli, target):
    from tests.fakes.releases import make_standin_pyz

    make_standin_pyz(target.with_name("gz-ia.pyz.previous"), "0.9.0")
    nexus.publish(releases("2.0.0"), "2.0.0")
    assert update_cli("update", env=nexus_env(nexus)).exit_code == 0
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]
    assert pyz_reports(previous_of(target)) == "gz-ia 1.0.0"


def test_rollback_without_previous(update_cli, target):
    result = update_cli("update", "rollback", "--json")
    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "NOT_FOUND"
    assert result.json["errors"][0]["message"] == \
        f"no previous version to roll back to ({previous_of(target)})"


def test_check_when_running_newer_than_the_registry(nexus: NexusFake, releases, update_cli,
                                                    target):
    nexus.publish(releases("1.5.0"), "1.5.0")
    listing = sorted(p.name for p in target.parent.iterdir())
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus), installed="2.0.0")
    assert result.json == {"ok": True, "data": {"current": "2.0.0", "latest": "1.5.0",
                                                "source": "nexus", "newer": False},
                           "errors": [], "warnings": []}
    spanish = update_cli("update", "--check", env={**nexus_env(nexus), "GZ_LANG": "es"},
                         installed="2.0.0")
    assert spanish.stdout == ("❯ Versión actual: v2.0.0\n✧ Versión remota: v1.5.0 (nexus)\n"
                              "✓ gz-ia ya se encuentra en la versión más reciente (v2.0.0)\n")
    assert sorted(p.name for p in target.parent.iterdir()) == listing  # nothing beside it


def test_errors_and_results_in_spanish(nexus: NexusFake, releases, update_cli, target,
                                       tmp_path):
    nexus.publish(releases("0.9.0"), "0.9.0")
    es = {**nexus_env(nexus), "GZ_LANG": "es"}
    refused = update_cli("update", "--version", "0.9.0", env=es)
    assert (refused.exit_code, refused.stderr) == (1, (
        "Error: no se instala una versión anterior (v1.0.0 → v0.9.0)\n"
        "agrega --allow-downgrade para instalar una versión anterior\n"))
    nothing = update_cli("update", "rollback", env=es)
    assert (nothing.exit_code, nothing.stderr) == (
        1, f"Error: no hay una versión anterior a la que volver ({previous_of(target)})\n")
    script = tmp_path / "gz-ia"
    script.write_text("#!/usr/bin/env python3\n")
    not_pyz = update_cli("update", env=es, argv0=script)
    assert (not_pyz.exit_code, not_pyz.stderr) == (1, (
        "Error: gz-ia no se está ejecutando desde un zipapp gz-ia.pyz, no puede "
        "reemplazarse a sí mismo\nactualízalo con la herramienta que lo instaló, p. ej. "
        "'pip install --upgrade gz-ia'; 'gz-ia update --check' sigue funcionando\n"))
    done = update_cli("update", "--version", "0.9.0", "--allow-downgrade", env=es)
    assert (done.exit_code, done.stdout, done.stderr) == (
        0, f"✓ gz-ia actualizado exitosamente a v0.9.0 en {target}\n",
        "↻ Descargando e instalando gz-ia v0.9.0...\n")
    back = update_cli("update", "rollback", env=es, installed="0.9.0")
    assert back.stdout == f"✓ gz-ia restaurado a v1.0.0 en {target}\n"


@pytest.mark.parametrize("url", [
    "reader:s3cr3t-pw@nexus.example/service/rest/v1/search/assets",  # no scheme
    "https://reader:s3cr3t-pw@nexus.example:badport/service/rest/v1/search",
    "https://[::1/service/rest/v1/search",
    "ftp://nexus.example/service/rest/v1/search",
])
def test_unusable_nexus_url_is_a_source_failure_printing_no_credentials(
        forgejo: ForgejoFake, releases, update_cli, url: str):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    env = {**forgejo_env(forgejo), "GZ_NEXUS_SEARCH_URL": url,
           "GZ_NEXUS_USER": "reader", "GZ_NEXUS_PASSWORD": "s3cr3t-pw"}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert result.json["warnings"][0]["message"] == (
        "Nexus failed: GZ_NEXUS_SEARCH_URL is not an http(s) URL with a host name; "
        "trying Forgejo")
    spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
    assert ("Nexus falló: GZ_NEXUS_SEARCH_URL no es una URL http(s) con un nombre de host"
            in spanish.stderr)
    assert "s3cr3t-pw" not in result.stdout + spanish.stdout + spanish.stderr


@pytest.mark.parametrize("document", [b"[]", b'{"items": null}'])
def test_credentials_in_the_search_url_are_never_printed(origin, forgejo: ForgejoFake,
                                                         releases, update_cli,
                                                         document: bytes):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    origin.files["/service/rest/v1/search/assets"] = document  # valid JSON, wrong shape
    url = origin.server.url.replace("http://", "http://reader:s3cr3t-pw@")
    env = {**forgejo_env(forgejo), "GZ_NEXUS_SEARCH_URL": f"{url}/service/rest/v1/search/assets"}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert result.json["warnings"][0]["message"] == (
        f"Nexus failed: 127.0.0.1:{origin.server.port} sent an invalid JSON document; "
        "trying Forgejo")
    assert "s3cr3t-pw" not in result.stdout


@pytest.mark.parametrize("flag", ["--check", "--dry-run", "-c"])
def test_update_flags_before_rollback_are_refused_not_ignored(nexus: NexusFake, releases,
                                                              update_cli, target, flag):
    nexus.publish(releases("2.0.0"), "2.0.0")
    assert update_cli("update", env=nexus_env(nexus)).exit_code == 0
    result = update_cli("update", flag, "rollback", "--json", installed="2.0.0")
    assert result.exit_code == 2
    assert result.json["errors"] == [{
        "code": "INVALID_INPUT", "retryable": False, "details": {"command": "rollback"},
        "message": "the options of 'gz-ia update' do not apply to 'gz-ia update rollback'",
        "hint": "run 'gz-ia update rollback' alone"}]
    assert pyz_reports(target) == "gz-ia 2.0.0"  # nothing rolled back
    spanish = update_cli("update", flag, "rollback", env={"GZ_LANG": "es"}, installed="2.0.0")
    assert spanish.stderr == ("Error: las opciones de 'gz-ia update' no se aplican a "
                              "'gz-ia update rollback'\nejecuta 'gz-ia update rollback' solo\n")
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_rollback_refuses_a_previous_file_that_is_not_a_zipapp(update_cli, target):
    previous = previous_of(target)
    previous.write_bytes(b"PK\x03\x04 half-written")
    result = update_cli("update", "rollback", "--json")
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "INTEGRITY", "retryable": False, "hint": None,
        "details": {"path": str(previous)},
        "message": f"{previous} is not a gz-ia zipapp; nothing was rolled back"}]
    assert pyz_reports(target) == "gz-ia 1.0.0"
    spanish = update_cli("update", "rollback", env={"GZ_LANG": "es"})
    assert spanish.stderr == (f"Error: {previous} no es un zipapp de gz-ia; no se restauró "
                              "nada\n")


@pytest.mark.parametrize(("variable", "secrets", "names"), [
    ("GZ_NEXUS_SEARCH_URL", {"GZ_NEXUS_USER": "reader", "GZ_NEXUS_PASSWORD": "s3cr3t-pw"},
     "GZ_NEXUS_USER/GZ_NEXUS_PASSWORD"),
    ("GZ_FORGEJO_API_URL", {"GZ_FORGEJO_TOKEN": "s3cr3t-pw"}, "GZ_FORGEJO_TOKEN"),
])
def test_credentials_never_go_over_plain_http_to_another_host(update_cli, variable: str,
                                                              secrets: dict[str, str],
                                                              names: str):
    url = "http://registry.example/service/rest/v1/search/assets"
    result = update_cli("update", "--check", "--json", env={variable: url, **secrets})
    assert result.exit_code == 1
    reasons = result.json["errors"][0]["details"]["reasons"]
    source = "nexus" if variable.startswith("GZ_NEXUS") else "forgejo"
    assert reasons[source] == (f"refusing to send {names} over plain http to registry.example; "
                               "use an https URL")
    spanish = update_cli("update", "--check", env={variable: url, **secrets, "GZ_LANG": "es"})
    assert (f"no se envían {names} por http sin cifrar a registry.example; usa una URL https"
            in spanish.stderr)
    assert "s3cr3t-pw" not in result.stdout + spanish.stderr


def test_nexus_371_anonymous_empty_search_says_credentials_may_be_missing(
        nexus: NexusFake, forgejo: ForgejoFake, releases, update_cli):
    nexus.users, nexus.anonymous_read, nexus.anonymous_search_empty = \
        {"reader": "pa55"}, False, True
    nexus.publish(releases("3.0.0"), "3.0.0")
    forgejo.publish("v2.0.0", releases("2.0.0"))
    env = {**nexus_env(nexus), **forgejo_env(forgejo)}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.json["data"]["source"] == "forgejo"
    assert result.json["warnings"][0]["message"] == (
        f"Nexus failed: 127.0.0.1:{nexus.server.port} found no assets at all; if anonymous "
        "access is off, set GZ_NEXUS_USER and GZ_NEXUS_PASSWORD; trying Forgejo")
    spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
    assert (f"127.0.0.1:{nexus.server.port} no encontró ningún archivo; si el acceso anónimo "
            "está desactivado, define GZ_NEXUS_USER y GZ_NEXUS_PASSWORD") in spanish.stderr
    authenticated = update_cli("update", "--check", "--json", env={
        **env, "GZ_NEXUS_USER": "reader", "GZ_NEXUS_PASSWORD": "pa55"})
    assert authenticated.json["data"]["latest"] == "3.0.0"


def test_rollback_killed_between_its_two_renames_is_completed_next_time(
        update_cli, target, tmp_path):
    from tests.fakes.releases import make_standin_pyz

    # the state a kill leaves after 'previous → gz-ia.pyz' and before 'displaced → previous'
    staging = target.parent / ".gz-ia.pyz.update"
    staging.mkdir()
    make_standin_pyz(staging / "gz-ia.pyz.displaced", "2.0.0")
    result = update_cli("update", "rollback", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json["data"]["version"] == "2.0.0"
    assert pyz_reports(target) == "gz-ia 2.0.0"
    assert pyz_reports(previous_of(target)) == "gz-ia 1.0.0"
    assert not staging.exists()


def test_nexus_download_unreachable_falls_back_to_forgejo(nexus: NexusFake,
                                                          forgejo: ForgejoFake, releases,
                                                          update_cli, target, dead_url: str):
    nexus.download_base = dead_url  # Nexus's Base URL names a host clients cannot reach
    nexus.publish(releases("3.0.0"), "3.0.0")
    forgejo.publish("v2.0.0", releases("2.0.0"))
    env = {**nexus_env(nexus), **forgejo_env(forgejo)}
    result = update_cli("update", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert result.json["data"]["source"] == "forgejo"
    assert result.json["data"]["version"] == "2.0.0"
    [warning] = result.json["warnings"]
    dead = dead_url.removeprefix("http://")
    assert warning["message"].startswith(
        f"Nexus failed: download of SHA256SUMS failed: cannot connect to {dead}: ")
    assert warning["message"].endswith("; trying Forgejo")
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_download_failing_on_both_names_both(nexus: NexusFake, forgejo: ForgejoFake, releases,
                                             update_cli, target, dead_url: str):
    nexus.download_base = dead_url
    nexus.publish(releases("3.0.0"), "3.0.0")
    forgejo.publish("v2.0.0", releases("2.0.0"))
    forgejo.server.inject("status", "/ops/gz-ia/releases/download/", status=503)
    result = update_cli("update", "--json", env={**nexus_env(nexus), **forgejo_env(forgejo)})
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "NETWORK"
    assert error["message"] == (
        f"download of SHA256SUMS failed: 127.0.0.1:{forgejo.server.port} answered HTTP 503")
    assert result.json["warnings"][0]["message"].startswith("Nexus failed: download of ")
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_download_failing_on_nexus_and_forgejo_down_names_both(nexus: NexusFake,
                                                               forgejo: ForgejoFake,
                                                               releases, update_cli,
                                                               dead_url: str):
    nexus.download_base = dead_url
    nexus.publish(releases("3.0.0"), "3.0.0")
    forgejo.server.go_down()
    result = update_cli("update", "--json", env={**nexus_env(nexus), **forgejo_env(forgejo)})
    assert result.exit_code == 1
    message = result.json["errors"][0]["message"]
    dead = dead_url.removeprefix("http://")
    assert message.startswith(f"could not check for updates (Nexus: download of SHA256SUMS "
                              f"failed: cannot connect to {dead}: ")
    assert f"; Forgejo: cannot connect to 127.0.0.1:{forgejo.server.port}: " in message


def test_locked_in_both_languages_and_for_rollback_too(nexus: NexusFake, releases,
                                                       update_cli, target):
    from gzia.update.apply import update_lock

    nexus.publish(releases("2.0.0"), "2.0.0")
    with update_lock(target):
        spanish = update_cli("update", env={**nexus_env(nexus), "GZ_LANG": "es"})
        assert (spanish.exit_code, spanish.stderr) == (1, (
            f"Error: ya hay otra actualización de {target} en curso\n"
            "espera a que termine y vuelve a ejecutar el comando\n"))
        rollback = update_cli("update", "rollback", "--json")
        assert rollback.exit_code == 1
        assert rollback.json["errors"][0]["code"] == "LOCKED"
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_update_and_rollback_leave_nothing_beside_the_installed_file(nexus: NexusFake,
                                                                     releases, update_cli,
                                                                     target):
    nexus.publish(releases("2.0.0"), "2.0.0")
    leftover = target.parent / ".gz-ia.pyz.update"
    leftover.mkdir()
    (leftover / "lock").touch()  # what earlier versions left after every update
    assert update_cli("update", env=nexus_env(nexus)).exit_code == 0
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]
    assert update_cli("update", "rollback").exit_code == 0
    assert pyz_reports(target) == "gz-ia 1.0.0"
    assert sorted(p.name for p in target.parent.iterdir()) == [".gz-ia.pyz.previous", "gz-ia.pyz"]


def test_a_lock_file_unlinked_by_its_finished_holder_is_not_held(target, monkeypatch):
    """Opened just before the holder removed it: locking it would exclude no one."""
    import os

    from gzia.contract import LockedError
    from gzia.update import apply
    from gzia.update.apply import staging_dir, update_lock

    folder = staging_dir(target)
    with update_lock(target):
        stale = os.open(folder / "lock", os.O_RDWR)  # a second updater opens the file now...
    with monkeypatch.context() as patch:  # ...and locks it after the first removed it
        patch.setattr(apply, "_open_lock", lambda lock: stale)
        with pytest.raises(LockedError) as refused, update_lock(target):
            pass
    assert refused.value.key == N_("another update of {path} is in progress")
    with update_lock(target) as again:
        assert again == folder and (folder / "lock").exists()
    assert not folder.exists()
