"""Behind a real proxy with basic auth (proxy.py), TLS verified against a test CA."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.proxy import ProxyProcess
from tests.update.conftest import forgejo_env, nexus_env, pyz_reports


@pytest.mark.parametrize("variable", ["HTTPS_PROXY", "https_proxy", "ALL_PROXY"])
def test_update_through_an_authenticating_proxy(nexus_tls: NexusFake, releases, update_cli,
                                                target: Path, tls_ca_file: Path,
                                                http_proxy: ProxyProcess, variable: str):
    nexus_tls.publish(releases("2.0.0"), "2.0.0")
    mark = http_proxy.mark()
    env = {**nexus_env(nexus_tls), "SSL_CERT_FILE": str(tls_ca_file),
           variable: http_proxy.url}
    result = update_cli("update", "--json", env=env)
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target) == "gz-ia 2.0.0"
    log = http_proxy.log_since(mark)
    assert f"CONNECT 127.0.0.1:{nexus_tls.server.port}" in log
    assert "ProxyAuthenticationFailed" not in log


def test_plain_http_through_the_proxy(forgejo: ForgejoFake, releases, update_cli,
                                      http_proxy: ProxyProcess):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    mark = http_proxy.mark()
    result = update_cli("update", "--check", "--json",
                        env={**forgejo_env(forgejo), "http_proxy": http_proxy.url})
    assert result.exit_code == 0, result.stdout
    assert f"GET 127.0.0.1:{forgejo.server.port}/api/v1/repos/ops/gz-ia/tags" in \
        http_proxy.log_since(mark)


def test_no_proxy_bypasses_it(forgejo: ForgejoFake, releases, update_cli,
                              http_proxy: ProxyProcess):
    forgejo.publish("v2.0.0", releases("2.0.0"))
    mark = http_proxy.mark()
    env = {**forgejo_env(forgejo), "HTTP_PROXY": http_proxy.url, "no_proxy": "127.0.0.1"}
    assert update_cli("update", "--check", "--json", env=env).exit_code == 0
    assert "127.0.0.1:" + str(forgejo.server.port) not in http_proxy.log_since(mark)


def test_proxy_auth_failure_is_clear_and_prints_no_credentials(
        nexus_tls: NexusFake, forgejo_tls: ForgejoFake, releases, update_cli,
        tls_ca_file: Path, http_proxy: ProxyProcess):
    nexus_tls.publish(releases("2.0.0"), "2.0.0")
    secret = "wr0ng-Pa55word"
    env = {**nexus_env(nexus_tls), **forgejo_env(forgejo_tls),
           "SSL_CERT_FILE": str(tls_ca_file),
           "HTTPS_PROXY": http_proxy.url_with("proxyuser", secret)}
    for flags in (["--json"], []):
        result = update_cli("update", "--check", *flags, env=env)
        assert result.exit_code == 1
        assert secret not in result.stdout + result.stderr
        assert "proxyuser" not in result.stdout + result.stderr
    document = update_cli("update", "--check", "--json", env=env).json
    [error] = document["errors"]
    assert error["code"] == "NETWORK"
    nexus_host = f"127.0.0.1:{nexus_tls.server.port}"
    forgejo_host = f"127.0.0.1:{forgejo_tls.server.port}"
    hint = "check the user and password in HTTPS_PROXY/HTTP_PROXY"
    assert error["message"] == (
        f"could not check for updates (Nexus: the proxy refused the credentials for "
        f"{nexus_host} (HTTP 407); {hint}; Forgejo: the proxy refused the credentials for "
        f"{forgejo_host} (HTTP 407); {hint})")


def test_tls_not_trusted_without_the_ca(nexus_tls: NexusFake, releases, update_cli):
    nexus_tls.publish(releases("2.0.0"), "2.0.0")
    result = update_cli("update", "--check", "--json", env=nexus_env(nexus_tls))
    assert result.exit_code == 1
    message = result.json["errors"][0]["message"]
    assert f"Nexus: cannot connect to 127.0.0.1:{nexus_tls.server.port}: " in message
    assert "CERTIFICATE_VERIFY_FAILED" in message or "certificate" in message.lower()


@pytest.mark.parametrize(("proxy", "detail"), [
    ("http://proxyuser:s3cr3t-pw@127.0.0.1:notaport", "Invalid port: 'notaport'"),
    ("ftp://proxyuser:s3cr3t-pw@127.0.0.1:3128",
     "Unknown scheme for proxy URL URL('ftp://127.0.0.1:3128')"),
    ("socks5://proxyuser:s3cr3t-pw@127.0.0.1:1080", "SOCKS proxies are not supported"),
])
def test_unusable_proxy_url_is_invalid_input_without_credentials(update_cli, proxy: str,
                                                                 detail: str):
    env = {"GZ_NEXUS_SEARCH_URL": "https://127.0.0.1:9/service/rest/v1/search/assets",
           "HTTPS_PROXY": proxy}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 2
    assert result.json["errors"] == [{
        "code": "INVALID_INPUT", "retryable": False, "details": {},
        "message": f"unusable proxy setting (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): {detail}",
        "hint": "set it to http://[user:password@]host:port"}]
    spanish = update_cli("update", "--check", "--debug", env={**env, "GZ_LANG": "es"})
    assert spanish.exit_code == 2
    assert spanish.stderr.startswith("Error: proxy inutilizable (HTTPS_PROXY, HTTP_PROXY o "
                                     f"ALL_PROXY): {detail}\n")
    for output in (result.stdout, spanish.stdout + spanish.stderr):
        assert "s3cr3t-pw" not in output and "proxyuser" not in output


def test_unreadable_ssl_cert_file_names_it(update_cli, tmp_path: Path):
    missing = tmp_path / "corporate-ca.pem"
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    for path in (missing, garbage):
        env = {"GZ_NEXUS_SEARCH_URL": "https://127.0.0.1:9/service/rest/v1/search/assets",
               "SSL_CERT_FILE": str(path)}
        result = update_cli("update", "--check", "--json", env=env)
        assert result.exit_code == 2
        [error] = result.json["errors"]
        assert error["code"] == "INVALID_INPUT"
        assert error["message"].startswith(f"SSL_CERT_FILE {path} is not a readable PEM "
                                           "certificate bundle: ")
        spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
        assert spanish.stderr.startswith(f"Error: SSL_CERT_FILE {path} no es un archivo de "
                                         "certificados PEM legible: ")


def test_proxy_down_names_the_proxy_not_the_registry(nexus: NexusFake, dead_url: str,
                                                     update_cli):
    proxy = dead_url.replace("http://", "http://proxyuser:s3cr3t-pw@")
    env = {**nexus_env(nexus), "HTTP_PROXY": proxy}
    result = update_cli("update", "--check", "--json", env=env)
    assert result.exit_code == 1
    message = result.json["errors"][0]["message"]
    proxy_host, nexus_host = dead_url.removeprefix("http://"), f"127.0.0.1:{nexus.server.port}"
    assert message.startswith(f"could not check for updates (Nexus: cannot connect to the "
                              f"proxy {proxy_host} (for {nexus_host}): ")
    spanish = update_cli("update", "--check", env={**env, "GZ_LANG": "es"})
    assert (f"no se pudo conectar con el proxy {proxy_host} (para {nexus_host}): "
            in spanish.stderr)
    bypassed = update_cli("update", "--check", "--json",
                          env={**env, "NO_PROXY": "127.0.0.1"})
    assert "proxy" not in bypassed.json["errors"][0]["message"]
    for output in (result.stdout, spanish.stderr):
        assert "s3cr3t-pw" not in output and "proxyuser" not in output
