"""Anything wrong with what arrives: INTEGRITY (or NETWORK), and the installed file untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.fixtures import StaticFake
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.releases import pyz_name, standin_pyz_bytes
from tests.fakes.signing import MinisignKey
from tests.update.conftest import forgejo_env, nexus_env, previous_of, pyz_reports

PYZ_PATH = "/repository/gz-ia/gz-ia/2.0.0/" + pyz_name("2.0.0")


@pytest.fixture
def published(nexus: NexusFake, releases) -> dict[str, bytes]:
    files = releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=300_000))
    nexus.publish(files, "2.0.0")
    return files


def _untouched(target: Path) -> None:
    assert pyz_reports(target) == "gz-ia 1.0.0"
    assert not previous_of(target).exists()
    assert not (target.parent / ".gz-ia.pyz.update").exists()


def test_tampered_byte(nexus: NexusFake, published, update_cli, target):
    nexus.checksums = "legacy"  # no registry sha256: SHA256SUMS alone must catch it
    nexus.server.inject("corrupt", PYZ_PATH)
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "INTEGRITY"
    assert error["message"] == f"{pyz_name('2.0.0')}: sha256 does not match SHA256SUMS"
    _untouched(target)
    spanish = update_cli("update", env={**nexus_env(nexus), "GZ_LANG": "es"})
    assert (spanish.exit_code, spanish.stdout) == (1, "")
    assert spanish.stderr.endswith(
        f"Error: {pyz_name('2.0.0')}: el sha256 no coincide con SHA256SUMS\n")
    _untouched(target)


def test_registry_hash_disagreeing_with_sums(nexus: NexusFake, releases, update_cli, target):
    files = releases("2.0.0")
    nexus.publish(files, "2.0.0")
    name = pyz_name("2.0.0")
    nexus.put("gz-ia", f"gz-ia/2.0.0/{name}", files[name] + b"!")  # replaced after signing
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.json["errors"][0]["code"] == "INTEGRITY"
    assert result.json["errors"][0]["message"] == \
        f"the registry's sha256 of {name} differs from SHA256SUMS"
    _untouched(target)


def test_truncated_body(nexus: NexusFake, published, update_cli, target):
    nexus.server.inject("truncate", PYZ_PATH, keep=100_000)
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "NETWORK"
    assert error["message"].startswith(f"download of {pyz_name('2.0.0')} failed: the connection "
                                       f"to 127.0.0.1:{nexus.server.port} broke: ")
    _untouched(target)


def test_body_longer_than_announced_size_is_stopped(forgejo: ForgejoFake, releases,
                                                    update_cli, target):
    files = releases("2.0.0")
    name = pyz_name("2.0.0")
    release = forgejo.publish("v2.0.0", files)
    asset = next(a for a in release.assets if a.name == name)
    asset.size = len(files[name])  # the API announces the signed size...
    asset.data = files[name] + b"x" * 2_000_000  # ...and the server sends more
    result = update_cli("update", "--json", env=forgejo_env(forgejo))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "INTEGRITY"
    assert error["message"] == (f"{name} is larger than expected ({asset.size} bytes); "
                                "download stopped")
    _untouched(target)


def test_signature_by_an_untrusted_key(nexus: NexusFake, releases, update_cli, target,
                                       tmp_path: Path):
    stranger = MinisignKey.generate(tmp_path / "stranger")
    nexus.publish(releases("2.0.0", key=stranger), "2.0.0")
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "INTEGRITY"
    stranger_id = stranger.pub.read_text().splitlines()[0].rsplit(" ", 1)[1]
    assert error["message"] == (f"SHA256SUMS signature rejected: signed by key {stranger_id}, "
                                "which is not trusted")
    assert not nexus.server.requests_to(PYZ_PATH)  # the pyz is never fetched
    _untouched(target)


def test_sums_changed_after_signing(nexus: NexusFake, releases, update_cli, target):
    files = releases("2.0.0")
    files["SHA256SUMS"] = files["SHA256SUMS"].replace(b"  ", b" *")
    nexus.publish(files, "2.0.0")
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.json["errors"][0]["code"] == "INTEGRITY"
    assert "does not match" in result.json["errors"][0]["message"]
    _untouched(target)


def test_no_trusted_key_refuses_to_install(nexus: NexusFake, published, update_cli, target):
    result = update_cli("update", "--json", env={**nexus_env(nexus),
                                                 "GZ_UPDATE_PUBLIC_KEYS": ""})
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "INTEGRITY", "retryable": False, "details": {},
        "message": "no trusted minisign public key: refusing to install an unverified release",
        "hint": "set GZ_UPDATE_PUBLIC_KEYS to the release public key (the base64 line of "
                "minisign.pub, or the path of that file)"}]
    assert not nexus.server.requests


def test_key_given_as_pub_file_path(nexus: NexusFake, published, update_cli, target,
                                    minisign_key: MinisignKey):
    env = {**nexus_env(nexus), "GZ_UPDATE_PUBLIC_KEYS": f"RWQnotakey, {minisign_key.pub}"}
    bad = update_cli("update", "--json", env=env)
    assert bad.json["errors"][0]["message"] == ("GZ_UPDATE_PUBLIC_KEYS: 'RWQnotakey' is "
                                                "neither a minisign public key nor a readable "
                                                ".pub file")
    good = update_cli("update", "--json", env={**nexus_env(nexus),
                                               "GZ_UPDATE_PUBLIC_KEYS": str(minisign_key.pub)})
    assert good.exit_code == 0, good.stdout


def test_self_test_must_report_the_release_version(nexus: NexusFake, releases, update_cli,
                                                   target):
    liar = standin_pyz_bytes("1.9.9")  # published as 2.0.0 but reports 1.9.9
    nexus.publish(releases("2.0.0", payload=liar), "2.0.0")
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 1
    assert result.json["errors"][0]["message"] == \
        "the downloaded gz-ia does not report version 2.0.0: gz-ia 1.9.9"
    _untouched(target)


def test_redirect_to_another_origin_drops_credentials(nexus: NexusFake, published,
                                                      update_cli, target, origin: StaticFake):
    nexus.users = {"reader": "pa55"}
    name = pyz_name("2.0.0")
    origin.files[f"/blobs/{name}"] = published[name]
    nexus.server.inject("redirect", PYZ_PATH, location=f"{origin.server.url}/blobs/{name}")
    env = {**nexus_env(nexus), "GZ_NEXUS_USER": "reader", "GZ_NEXUS_PASSWORD": "pa55"}
    result = update_cli("update", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"
    [fetched] = origin.server.requests
    assert "authorization" not in fetched.headers
    assert all(r.headers.get("authorization", "").startswith("Basic ")
               for r in nexus.server.requests)


def test_slower_than_the_timeout_falls_back(nexus: NexusFake, forgejo: ForgejoFake, releases,
                                            update_cli):
    nexus.publish(releases("3.0.0"), "3.0.0")
    forgejo.publish("v2.0.0", releases("2.0.0"))
    nexus.server.inject("slow", "/service/", delay=2.0)
    env = {**nexus_env(nexus), **forgejo_env(forgejo), "GZ_UPDATE_TIMEOUT": "0.5"}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 0
    assert result.json["data"]["source"] == "forgejo"
    assert result.json["warnings"][0]["message"] == (
        f"Nexus failed: 127.0.0.1:{nexus.server.port} did not answer within 0.5 s; "
        "trying Forgejo")


def test_endless_json_document_is_cut_short_and_forgejo_tried(origin: StaticFake,
                                                              forgejo: ForgejoFake, releases,
                                                              update_cli):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    origin.files["/service/rest/v1/search/assets"] = b'{"items": [' + b" " * (9 << 20)
    env = {"GZ_NEXUS_SEARCH_URL": f"{origin.server.url}/service/rest/v1/search/assets",
           **forgejo_env(forgejo)}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 0
    assert result.json["warnings"][0]["message"] == (
        f"Nexus failed: 127.0.0.1:{origin.server.port} sent more than 8 MiB of JSON; "
        "trying Forgejo")
    spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
    assert (f"Aviso: Nexus falló: 127.0.0.1:{origin.server.port} envió más de 8 MiB de JSON; "
            "probando Forgejo") in spanish.stderr


def test_forgejo_token_goes_to_forgejo_only_even_through_a_303(forgejo: ForgejoFake, releases,
                                                               update_cli, target,
                                                               origin: StaticFake):
    forgejo.repo().private = True
    forgejo.tokens["reader-t0ken"] = {"login": "ops", "write": False}
    files = releases("2.0.0")
    forgejo.publish("v2.0.0", files)
    name = pyz_name("2.0.0")
    origin.files[f"/storage/{name}"] = files[name]
    forgejo.server.inject("redirect", f"/ops/gz-ia/releases/download/v2.0.0/{name}",
                          code=303, location=f"{origin.server.url}/storage/{name}")
    env = {**forgejo_env(forgejo), "GZ_FORGEJO_TOKEN": "reader-t0ken"}
    result = update_cli("update", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"
    [fetched] = origin.server.requests
    assert "authorization" not in fetched.headers
    assert {r.headers.get("authorization") for r in forgejo.server.requests} == \
        {"token reader-t0ken"}
    assert "reader-t0ken" not in result.stdout + result.stderr


@pytest.mark.parametrize(("url", "applies"), [
    ("https://nexus.example/repository/x", True),
    ("https://NEXUS.example:443/other", True),
    ("http://nexus.example/repository/x", False),  # other scheme
    ("https://nexus.example:8443/repository/x", False),  # other port
    ("https://blobs.nexus.example/x", False),  # other host, even a sub-domain
    ("https://nexus.example.evil/x", False),
])
def test_credentials_are_bound_to_scheme_host_and_port(url: str, applies: bool):
    from gzia.update.client import Credentials

    credentials = Credentials.basic("https://nexus.example/service/rest/v1/search", "u", "p")
    assert credentials is not None and credentials.applies_to(url) is applies


def test_signature_by_another_key_claiming_the_trusted_key_id(nexus: NexusFake, releases,
                                                              update_cli, target,
                                                              minisign_key: MinisignKey,
                                                              tmp_path: Path):
    import base64

    forger = MinisignKey.generate(tmp_path / "forger")
    files = releases("2.0.0", key=forger)
    trusted_id = base64.b64decode(minisign_key.public_line)[2:10]
    lines = files["SHA256SUMS.minisig"].decode().splitlines()
    raw = base64.b64decode(lines[1])
    lines[1] = base64.b64encode(raw[:2] + trusted_id + raw[10:]).decode()
    files["SHA256SUMS.minisig"] = ("\n".join(lines) + "\n").encode()
    nexus.publish(files, "2.0.0")
    result = update_cli("update", "--json", env=nexus_env(nexus))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    key_id = minisign_key.pub.read_text().splitlines()[0].rsplit(" ", 1)[1]
    assert (error["code"], error["message"]) == (
        "INTEGRITY", f"SHA256SUMS signature rejected: the signature by key {key_id} does not "
                     "match")
    assert not nexus.server.requests_to(PYZ_PATH)
    _untouched(target)


def test_cleanly_ended_short_body_is_integrity(forgejo: ForgejoFake, releases, update_cli,
                                               target):
    files = releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=200_000))
    name = pyz_name("2.0.0")
    release = forgejo.publish("v2.0.0", files)
    asset = next(a for a in release.assets if a.name == name)
    asset.size = len(files[name])  # the API announces the signed size...
    asset.data = files[name][:100_000]  # ...and the server sends a complete, shorter body
    result = update_cli("update", "--json", env=forgejo_env(forgejo))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["message"]) == (
        "INTEGRITY", f"{name}: received 100000 bytes, expected {asset.size}")
    _untouched(target)


def test_integrity_failure_never_falls_back_to_forgejo(nexus: NexusFake, published,
                                                       forgejo: ForgejoFake, releases,
                                                       update_cli, target):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    nexus.checksums = "legacy"
    nexus.server.inject("corrupt", PYZ_PATH)
    result = update_cli("update", "--json", env={**nexus_env(nexus), **forgejo_env(forgejo)})
    assert result.exit_code == 1
    assert result.json["errors"][0]["code"] == "INTEGRITY"
    assert result.json["warnings"] == []
    # Forgejo was asked only for the channel manifest Nexus does not have, never a release
    assert [r.path for r in forgejo.server.requests] == [
        "/api/v1/repos/ops/gz-ia/releases/tags/channel-stable"]
    _untouched(target)
