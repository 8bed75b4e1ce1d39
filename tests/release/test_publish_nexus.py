"""Publishing to the fake Nexus raw repository (tests/fakes/nexus.py): PUT, never overwrite."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.http import Request, Response
from tests.fakes.nexus import NexusFake
from tests.release.conftest import (
    AMD64,
    ARM64,
    NEXUS_PASSWORD,
    ORDER,
    VERSION,
    KeyFiles,
    RunRelease,
    files_of,
    publish_env,
    publish_to,
)

publish = functools.partial(publish_to, "nexus")


def stored(nexus: NexusFake) -> dict[str, bytes]:
    prefix = f"gz-ia/{VERSION}/"
    return {p.removeprefix(prefix): d for p, d in nexus.repos["gz-ia"].items()}


def writes(nexus: NexusFake) -> list[str]:
    assert nexus.server is not None
    return [f"{r.method} {r.path}" for r in nexus.server.requests if r.method != "GET"]


def test_publish_puts_every_file_signature_last(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)

    result = publish(run_release, signed_release, release_key, env, "--json")

    assert (result.exit_code, result.stderr) == (0, "")
    base = f"{env['GZ_RELEASE_NEXUS_URL']}/repository/gz-ia/gz-ia/{VERSION}"
    assert result.json["data"] == {
        "version": VERSION,
        "dry_run": False,
        "signed_by": release_key.key_id,
        "nexus": {
            "url": env["GZ_RELEASE_NEXUS_URL"],
            "repository": "gz-ia",
            "files": [{"file": n, "url": f"{base}/{n}", "action": "uploaded"} for n in ORDER],
        },
    }
    assert stored(nexus) == files_of(signed_release)
    assert writes(nexus) == [f"PUT /repository/gz-ia/gz-ia/{VERSION}/{n}" for n in ORDER]
    assert nexus.server is not None
    puts = [r for r in nexus.server.requests if r.method == "PUT"]
    assert {r.headers["content-type"] for r in puts} == {"application/octet-stream"}
    assert {r.basic_auth() for r in puts} == {("ci-publisher", NEXUS_PASSWORD)}
    assert NEXUS_PASSWORD not in result.stdout + result.stderr


def test_rerun_after_a_partial_failure_completes_the_release(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)
    assert nexus.server is not None
    path = f"/repository/gz-ia/gz-ia/{VERSION}/SHA256SUMS"
    nexus.server.inject("status", path, method="PUT", times=1, status=503)

    failed = publish(run_release, signed_release, release_key, env)
    after_failure = sorted(stored(nexus))
    nexus.server.requests.clear()
    completed = publish(run_release, signed_release, release_key, env)

    assert failed.exit_code == 1
    assert failed.stderr == (
        f"Error: Nexus PUT {env['GZ_RELEASE_NEXUS_URL']}{path}: HTTP 503 Service Unavailable\n"
    )
    assert after_failure == [AMD64, ARM64]
    assert (completed.exit_code, completed.stderr) == (0, "")
    assert completed.stdout == (
        f"nexus: present {AMD64}\nnexus: present {ARM64}\n"
        "nexus: uploaded SHA256SUMS\nnexus: uploaded SHA256SUMS.minisig\n"
    )
    assert stored(nexus) == files_of(signed_release)


def test_nexus_refusing_a_redeploy_is_a_conflict(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    """Another publisher wins the race between our check and our PUT: 400, never retried."""
    env = publish_env(nexus, forgejo)
    assert nexus.server is not None
    nexus.server.inject(
        "status",
        f"/repository/gz-ia/gz-ia/{VERSION}/{AMD64}",
        method="PUT",
        times=1,
        status=400,
    )

    result = publish(run_release, signed_release, release_key, env)

    assert result.exit_code == 1
    assert result.stderr == f"Error: Nexus refused {AMD64} (HTTP 400): already published\n"
    assert writes(nexus) == [f"PUT /repository/gz-ia/gz-ia/{VERSION}/{AMD64}"]


def test_dry_run_only_reads(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)
    nexus.put("gz-ia", f"gz-ia/{VERSION}/{AMD64}", (signed_release / AMD64).read_bytes())

    result = publish(run_release, signed_release, release_key, env, "--dry-run")

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"nexus: already there: {AMD64}\nnexus: would upload {ARM64}\n"
        "nexus: would upload SHA256SUMS\nnexus: would upload SHA256SUMS.minisig\n"
    )
    assert writes(nexus) == []


def test_an_unsigned_release_is_not_published(  # noqa: PLR0917 - pytest fixtures
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
    tmp_path: Path,
) -> None:
    """Signed by a key gz-ia does not trust: installed copies would refuse it."""
    from tests.release.conftest import write_key

    other = write_key(tmp_path / "other")
    env = publish_env(nexus, forgejo)

    result = publish(run_release, signed_release, other, env)

    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: SHA256SUMS.minisig: signed by key {release_key.key_id}, which is not trusted\n"
    )
    assert nexus.server is not None and nexus.server.requests == []


def test_missing_settings_are_named(
    signed_release: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    result = publish(run_release, signed_release, release_key, {})

    assert result.exit_code == 2
    assert result.stderr == "Error: GZ_RELEASE_NEXUS_URL is not set\n"


def test_plain_http_to_a_remote_host_is_refused(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)

    result = publish(
        run_release, signed_release, release_key, env, "--nexus-url", "http://nexus.example.com"
    )

    assert result.exit_code == 2
    assert result.stderr == (
        "Error: GZ_RELEASE_NEXUS_URL uses plain http: credentials would travel unencrypted; "
        "use https\n"
    )


def test_tls_is_verified_against_ssl_cert_file(  # noqa: PLR0917 - pytest fixtures
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus_tls: NexusFake,
    forgejo: ForgejoFake,
    tls_ca_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = publish_env(nexus_tls, forgejo)
    assert env["GZ_RELEASE_NEXUS_URL"].startswith("https://")

    untrusted = publish(run_release, signed_release, release_key, env)
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_ca_file))
    trusted = publish(run_release, signed_release, release_key, env)

    assert untrusted.exit_code == 1
    assert "ConnectError" in untrusted.stderr
    assert "CERTIFICATE_VERIFY_FAILED" in untrusted.stderr
    assert (trusted.exit_code, trusted.stderr) == (0, "")
    assert stored(nexus_tls) == files_of(signed_release)


def test_an_upload_stored_wrongly_is_caught_by_reading_it_back(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    """As when a form-encoded PUT makes Nexus store an empty file with 201 Created."""
    env = publish_env(nexus, forgejo)
    assert nexus.server is not None
    real = nexus.server.app

    def stores_empty_files(request: Request) -> Response:
        if request.method == "PUT":
            request.body = b""
        return real(request)

    nexus.server.app = stores_empty_files

    result = publish(run_release, signed_release, release_key, env, "--json")

    url = f"{env['GZ_RELEASE_NEXUS_URL']}/repository/gz-ia/gz-ia/{VERSION}/{AMD64}"
    assert result.exit_code == 1
    assert result.json["errors"] == [
        {
            "code": "INTEGRITY",
            "message": f"Nexus does not serve the uploaded {AMD64}",
            "hint": f"delete {url} in Nexus, then publish again",
            "retryable": False,
            "details": {},
        }
    ]
    assert writes(nexus) == [f"PUT /repository/gz-ia/gz-ia/{VERSION}/{AMD64}"]
