"""The sign, verify and keygen steps through the release CLI, and SHA256SUMS itself."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from gzia.update.minisign import parse_public_key, parse_signature, verify
from tests.fakes.signing import MinisignKey, verify_with_minisign
from tests.release.conftest import (
    REPO,
    VERSION,
    KeyFiles,
    RunRelease,
    make_artifacts,
    sign_release,
)

AMD64, ARM64 = "gz-ia-1.2.3-linux-amd64.pyz", "gz-ia-1.2.3-linux-arm64.pyz"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sign_writes_sums_and_a_signature_minisign_accepts(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(
        run_release, folder, "--json", "--key-file", release_key.secret, "--keys-dir",
        release_key.keys_dir, env={"SOURCE_DATE_EPOCH": "1767225600"}
    )

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.json == {
        "ok": True,
        "data": {
            "sums": "SHA256SUMS",
            "files": [
                {"name": AMD64, "sha256": sha256(folder / AMD64)},
                {"name": ARM64, "sha256": sha256(folder / ARM64)},
            ],
            "key_id": release_key.key_id,
            "trusted": True,
            "written": ["SHA256SUMS", "SHA256SUMS.minisig"],
        },
        "errors": [],
        "warnings": [],
    }
    assert (folder / "SHA256SUMS").read_text() == (
        f"{sha256(folder / AMD64)}  {AMD64}\n{sha256(folder / ARM64)}  {ARM64}\n"
    )
    done = verify_with_minisign(
        folder / "SHA256SUMS", folder / "SHA256SUMS.minisig", release_key.public
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Trusted comment: timestamp:1767225600\tfile:SHA256SUMS\thashed\n")
    checked = subprocess.run(
        ["sha256sum", "--check", "--strict", "SHA256SUMS"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert checked.stdout == f"{AMD64}: OK\n{ARM64}: OK\n"


def test_sign_reads_the_key_from_the_environment(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)
    env = {"GZ_RELEASE_MINISIGN_KEY": release_key.secret.read_text()}

    result = sign_release(run_release, folder, "--keys-dir", release_key.keys_dir, env=env)

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"wrote SHA256SUMS over {AMD64}, {ARM64}, signed by key "
        f"{release_key.key_id}\n"
    )
    assert release_key.secret.read_text() not in result.stdout + result.stderr


def test_sign_reads_only_the_base64_line_from_the_environment(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)
    env = {"GZ_RELEASE_MINISIGN_KEY": release_key.secret.read_text().splitlines()[1]}

    result = run_release("sign", "--version", VERSION, "--dir", folder, env=env)

    assert result.exit_code == 0
    signed = (folder / "SHA256SUMS.minisig").read_text()
    signer = verify(
        (folder / "SHA256SUMS").read_bytes(), parse_signature(signed), [release_key.public_key]
    )
    assert signer == release_key.public_key


def test_signing_with_a_key_gz_ia_does_not_trust_warns(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)
    empty = tmp_path / "no-keys"
    empty.mkdir()

    result = sign_release(
        run_release, folder, "--key-file", release_key.secret, "--keys-dir", empty
    )

    assert result.exit_code == 0
    assert result.stderr == (
        f"Warning: key {release_key.key_id} is not in {empty}: "
        "installed gz-ia will refuse this release\n"
    )


def test_sign_without_a_key_is_a_usage_error(tmp_path: Path, run_release: RunRelease) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = run_release("sign", "--json", "--version", VERSION, "--dir", folder)

    assert result.exit_code == 2
    assert result.json == {
        "ok": False,
        "data": None,
        "errors": [
            {
                "code": "INVALID_INPUT",
                "message": "no signing key: pass --key-file or set GZ_RELEASE_MINISIGN_KEY",
                "hint": "docs/release.md explains how to create the key",
                "retryable": False,
                "details": {},
            }
        ],
        "warnings": [],
    }


def test_sign_dry_run_writes_nothing(tmp_path: Path, run_release: RunRelease) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = run_release("sign", "--dry-run", "--version", VERSION, "--dir", folder)

    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"would write SHA256SUMS over {AMD64}, {ARM64} and sign it\n"
    assert sorted(p.name for p in folder.iterdir()) == [AMD64, ARM64]


def test_sign_without_artifacts_says_how_to_build(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    result = run_release(
        "sign", "--version", VERSION, "--dir", tmp_path, "--key-file", release_key.secret
    )

    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: no gz-ia {VERSION} artifacts in {tmp_path}\n"
        f"Hint: python3 release/release.py build --version {VERSION}\n"
    )


def test_verify_detects_a_changed_artifact(
    signed_release: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    ok = run_release(
        "verify", "--version", VERSION, "--dir", signed_release, "--keys-dir", release_key.keys_dir
    )
    (signed_release / ARM64).write_bytes(b"tampered")
    bad = run_release(
        "verify",
        "--json",
        "--version",
        VERSION,
        "--dir",
        signed_release,
        "--keys-dir",
        release_key.keys_dir,
    )

    key_id = release_key.key_id
    assert (ok.exit_code, ok.stdout) == (
        0,
        f"verified {AMD64}, {ARM64}, SHA256SUMS, SHA256SUMS.minisig: signed by key {key_id}\n",
    )
    assert bad.exit_code == 1
    assert bad.json["errors"] == [
        {
            "code": "INTEGRITY",
            "message": f"{ARM64} does not match its SHA256SUMS entry",
            "hint": None,
            "retryable": False,
            "details": {},
        }
    ]


def test_keygen_writes_a_private_secret_key_and_never_overwrites(
    tmp_path: Path, run_release: RunRelease
) -> None:
    secret, public = tmp_path / "r.key", tmp_path / "r.pub"

    dry = run_release("keygen", "--dry-run", "--secret-key", secret, "--public-key", public)
    assert (dry.exit_code, dry.stdout) == (
        0, f"would write a new key: {secret} (secret), {public}\n"
    )
    assert not secret.exists() and not public.exists()
    first = run_release("keygen", "--json", "--secret-key", secret, "--public-key", public)
    second = run_release("keygen", "--secret-key", secret, "--public-key", public)

    key = parse_public_key(public.read_text())
    assert first.exit_code == 0
    assert first.json["data"] == {
        "key_id": key.id_hex,
        "secret_key": str(secret),
        "public_key": str(public),
    }
    assert secret.stat().st_mode & 0o777 == 0o600
    data = tmp_path / "data"
    data.write_text("signed with the new key\n")
    signature = MinisignKey(public, secret).sign(data)
    assert verify(data.read_bytes(), parse_signature(signature), [key]) == key
    assert (second.exit_code, second.stderr) == (
        1,
        f"Error: {secret} exists; not overwriting a key\n",
    )


def test_the_script_entry_runs_from_any_directory(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "release" / "release.py"),
            "sign",
            "--json",
            "--version",
            "bad",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 2
    assert done.stdout.count("\n") == 1
    assert json.loads(done.stdout) == {
        "ok": False,
        "data": None,
        "errors": [
            {
                "code": "INVALID_INPUT",
                "message": "invalid release version 'bad': expected X.Y.Z or X.Y.Z(a|b|rc)N",
                "hint": None,
                "retryable": False,
                "details": {},
            }
        ],
        "warnings": [],
    }
