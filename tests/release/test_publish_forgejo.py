"""Publishing to the fake Forgejo (tests/fakes/forgejo.py): draft, attachments, publish."""

from __future__ import annotations

import functools
from pathlib import Path

from release.forgejo import release_body
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.http import Request, Response
from tests.fakes.nexus import NexusFake
from tests.release.conftest import (
    AMD64,
    ARM64,
    FORGEJO_TOKEN,
    ORDER,
    VERSION,
    KeyFiles,
    RunRelease,
    files_of,
    publish_env,
    publish_to,
)

API = "/api/v1/repos/ops/gz-ia"


publish = functools.partial(publish_to, "forgejo")


def calls(forgejo: ForgejoFake) -> list[str]:
    assert forgejo.server is not None
    return [f"{r.method} {r.target}" for r in forgejo.server.requests]


def attachments(forgejo: ForgejoFake) -> dict[str, bytes]:
    (release,) = forgejo.repo().releases
    return {a.name: a.data for a in release.assets}


def test_publish_creates_a_draft_attaches_then_publishes(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)

    result = publish(run_release, signed_release, release_key, env, "--commit", "4b2e8d1f")

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "forgejo: release v1.2.3: created\n" + "".join(
        f"forgejo: uploaded {n}\n" for n in ORDER
    )
    assert calls(forgejo) == [
        f"GET {API}/releases/tags/v1.2.3",
        f"POST {API}/releases",
        f"GET {API}/releases/tags/v1.2.3",
        *[f"POST {API}/releases/{forgejo.repo().releases[0].id}/assets?name={n}" for n in ORDER],
        f"PATCH {API}/releases/{forgejo.repo().releases[0].id}",
        f"GET {API}/releases/tags/v1.2.3",
    ]
    (release,) = forgejo.repo().releases
    sums = (signed_release / "SHA256SUMS").read_text()
    assert (release.tag_name, release.name, release.draft, release.prerelease) == (
        "v1.2.3",
        "v1.2.3",
        False,
        False,
    )
    assert (release.body, release.target_commitish) == (release_body(VERSION, sums), "4b2e8d1f")
    assert attachments(forgejo) == files_of(signed_release)
    assert forgejo.server is not None
    requests = forgejo.server.requests
    assert {r.headers["authorization"] for r in requests} == {f"token {FORGEJO_TOKEN}"}
    uploads = [r for r in requests if "/assets" in r.path]
    assert all(r.headers["content-type"].startswith("multipart/form-data") for r in uploads)
    assert all(b'name="attachment"' in r.body for r in uploads)
    assert FORGEJO_TOKEN not in result.stdout + result.stderr


def test_the_draft_is_created_as_a_draft(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    import json

    env = publish_env(nexus, forgejo)
    publish(run_release, signed_release, release_key, env)

    assert forgejo.server is not None
    (create,) = [
        r for r in forgejo.server.requests if r.method == "POST" and r.path.endswith("/releases")
    ]
    sums = (signed_release / "SHA256SUMS").read_text()
    assert json.loads(create.body) == {
        "tag_name": "v1.2.3",
        "name": "v1.2.3",
        "body": release_body(VERSION, sums),
        "draft": True,
        "prerelease": False,
    }


def test_rerun_after_a_failed_upload_completes_the_same_release(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)
    assert forgejo.server is not None
    uploads = {"count": 0}
    original = forgejo.server.app

    def third_upload_fails(request: Request) -> Response:
        if request.method == "POST" and "/assets" in request.path:
            uploads["count"] += 1
            if uploads["count"] == 3:
                return Response(500, b'{"message":"","url":""}')
        return original(request)

    forgejo.server.app = third_upload_fails

    failed = publish(run_release, signed_release, release_key, env)
    draft_after_failure = (forgejo.repo().releases[0].draft, sorted(attachments(forgejo)))
    completed = publish(run_release, signed_release, release_key, env)

    assert failed.exit_code == 1
    assert failed.stderr.startswith(f"Error: Forgejo POST {forgejo.server.url}{API}/releases/")
    assert failed.stderr.endswith("/assets: HTTP 500 Internal Server Error\n")
    assert draft_after_failure == (True, [AMD64, ARM64])
    assert (completed.exit_code, completed.stderr) == (0, "")
    assert completed.stdout == (
        "forgejo: release v1.2.3: completed\n"
        f"forgejo: present {AMD64}\nforgejo: present {ARM64}\n"
        "forgejo: uploaded SHA256SUMS\nforgejo: uploaded SHA256SUMS.minisig\n"
    )
    assert len(forgejo.repo().releases) == 1
    assert forgejo.repo().releases[0].draft is False
    assert attachments(forgejo) == files_of(signed_release)


def test_a_draft_left_by_another_build_is_emptied_and_refilled(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)
    old = forgejo.publish("v1.2.3", {AMD64: b"an older build", "notes.txt": b"x"}, draft=True)
    old.body = release_body(VERSION, "0" * 64 + f"  {AMD64}\n")

    result = publish(run_release, signed_release, release_key, env)

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "forgejo: release v1.2.3: completed\n"
        f"forgejo: removed {AMD64}\nforgejo: removed notes.txt\n"
        + "".join(f"forgejo: uploaded {n}\n" for n in ORDER)
    )
    assert attachments(forgejo) == files_of(signed_release)
    sums = (signed_release / "SHA256SUMS").read_text()
    assert (old.draft, old.body) == (False, release_body(VERSION, sums))


def test_a_prerelease_is_marked_as_such(
    tmp_path: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    from tests.release.conftest import make_artifacts

    folder = tmp_path / "rc"
    make_artifacts(folder, "1.3.0rc1")
    run_release("sign", "--version", "1.3.0rc1", "--dir", folder, "--key-file", release_key.secret)
    env = publish_env(nexus, forgejo)

    result = run_release(
        "publish",
        "--to",
        "forgejo",
        "--version",
        "v1.3.0rc1",
        "--dir",
        folder,
        "--keys-dir",
        release_key.keys_dir,
        env=env,
    )

    assert (result.exit_code, result.stderr) == (0, "")
    (release,) = forgejo.repo().releases
    assert (release.tag_name, release.prerelease, release.draft) == ("v1.3.0rc1", True, False)


def test_dry_run_only_reads(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)

    result = publish(run_release, signed_release, release_key, env, "--dry-run", "--json")

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.json["data"]["forgejo"] == {
        "url": env["GZ_RELEASE_FORGEJO_URL"],
        "repository": "ops/gz-ia",
        "tag": "v1.2.3",
        "release": "create",
        "files": [{"file": n, "action": "upload"} for n in ORDER],
    }
    assert calls(forgejo) == [f"GET {API}/releases/tags/v1.2.3"]
    assert forgejo.repo().releases == []


def test_both_registries_are_published_even_when_one_fails(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    env = publish_env(nexus, forgejo)
    assert nexus.server is not None
    nexus.server.go_down()

    result = run_release(
        "publish",
        "--json",
        "--version",
        VERSION,
        "--dir",
        signed_release,
        "--keys-dir",
        release_key.keys_dir,
        env=env,
    )

    assert result.exit_code == 1
    assert [e["code"] for e in result.json["errors"]] == ["NETWORK"]
    assert result.json["errors"][0]["message"].startswith(
        f"Nexus GET {env['GZ_RELEASE_NEXUS_URL']}/repository/gz-ia/gz-ia/{VERSION}/{AMD64}: "
        "ConnectError"
    )
    assert result.json["data"]["forgejo"]["release"] == "created"
    assert attachments(forgejo) == files_of(signed_release)


def test_a_duplicate_attachment_in_our_draft_is_removed(
    signed_release: Path,
    release_key: KeyFiles,
    run_release: RunRelease,
    nexus: NexusFake,
    forgejo: ForgejoFake,
) -> None:
    """Two attachments of one name make Forgejo fall back to /attachments/<uuid> links."""
    env = publish_env(nexus, forgejo)
    sums = (signed_release / "SHA256SUMS").read_text()
    data = (signed_release / AMD64).read_bytes()
    draft = forgejo.publish("v1.2.3", {AMD64: data}, draft=True)
    draft.body = release_body(VERSION, sums)
    duplicate = forgejo.publish("v0.0.0", {AMD64: data}).assets[0]
    draft.assets.append(duplicate)

    result = publish(run_release, signed_release, release_key, env)

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "forgejo: release v1.2.3: completed\n"
        f"forgejo: removed {AMD64}\nforgejo: present {AMD64}\n"
        f"forgejo: uploaded {ARM64}\nforgejo: uploaded SHA256SUMS\n"
        "forgejo: uploaded SHA256SUMS.minisig\n"
    )
    assert sorted(a.name for a in draft.assets) == sorted(ORDER)
