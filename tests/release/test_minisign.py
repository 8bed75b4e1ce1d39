"""Signing with the real minisign program (Debian package ``minisign``): the signature's
layout, password-protected keys, and the keys and programs the sign step refuses."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest

from tests.fakes.signing import minisign_binary, verify_with_minisign
from tests.release.conftest import KeyFiles, RunRelease, make_artifacts, sign_release, write_key

EPOCH = {"SOURCE_DATE_EPOCH": "1767225600"}


def test_the_signature_is_prehashed_with_the_key_id_and_both_comments(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(run_release, folder, "--key-file", release_key.secret, env=EPOCH)

    assert result.exit_code == 0, result.stderr
    lines = (folder / "SHA256SUMS.minisig").read_text().splitlines()
    raw = base64.b64decode(lines[1])
    assert lines[0] == "untrusted comment: signature from the gz-ia release key"
    assert lines[2] == "trusted comment: timestamp:1767225600\tfile:SHA256SUMS\thashed"
    assert (len(lines), len(raw), raw[:2]) == (4, 74, b"ED")
    assert raw[2:10] == base64.b64decode(release_key.public.read_text().splitlines()[1])[2:10]
    assert len(base64.b64decode(lines[3])) == 64


def test_a_source_date_epoch_that_is_no_number_is_refused(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(
        run_release, folder, "--key-file", release_key.secret,
        env={"SOURCE_DATE_EPOCH": "1\ttrusted: yes"},
    )  # fmt: skip

    assert (result.exit_code, result.stderr) == (
        2, "Error: SOURCE_DATE_EPOCH must be a number, got '1\\ttrusted: yes'\n"
    )
    assert not (folder / "SHA256SUMS").exists()


@pytest.fixture(scope="module")
def encrypted_key(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A password-protected key made by ``minisign -G`` (password on standard input)."""
    folder = tmp_path_factory.mktemp("encrypted")
    public, secret = folder / "e.pub", folder / "e.key"
    subprocess.run(
        [minisign_binary(), "-G", "-p", str(public), "-s", str(secret)],
        input="c0rrect horse\nc0rrect horse\n",
        text=True,
        capture_output=True,
        timeout=120,
        check=True,
    )
    return secret, public


def test_a_password_protected_key_signs(
    tmp_path: Path, encrypted_key: tuple[Path, Path], run_release: RunRelease
) -> None:
    secret, public = encrypted_key
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(
        run_release, folder, "--key-file", secret, "--keys-dir", public.parent,
        env={"GZ_RELEASE_MINISIGN_PASSWORD": "c0rrect horse"}
    )
    done = verify_with_minisign(folder / "SHA256SUMS", folder / "SHA256SUMS.minisig", public)

    assert (result.exit_code, result.stderr) == (0, "")
    assert "c0rrect horse" not in result.stdout
    assert done.returncode == 0, done.stderr


def test_a_wrong_password_is_named(
    tmp_path: Path, encrypted_key: tuple[Path, Path], run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(
        run_release, folder, "--key-file", encrypted_key[0],
        env={"GZ_RELEASE_MINISIGN_PASSWORD": "wrong horse"},
    )  # fmt: skip

    assert (result.exit_code, result.stderr) == (
        1, "Error: the password of the minisign secret key is wrong\n"
    )
    assert "wrong horse" not in result.stdout + result.stderr


def test_an_encrypted_key_without_a_password_says_how_to_give_one(
    tmp_path: Path, encrypted_key: tuple[Path, Path], run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(run_release, folder, "--json", "--key-file", encrypted_key[0])

    assert result.exit_code == 2
    assert result.json["errors"] == [{
        "code": "INVALID_INPUT",
        "message": "the minisign secret key is encrypted with a password",
        "retryable": False,
        "hint": "set GZ_RELEASE_MINISIGN_PASSWORD, or use a key made by: minisign -G -W",
        "details": {},
    }]  # fmt: skip


def test_a_damaged_secret_key_signs_nothing(tmp_path: Path, run_release: RunRelease) -> None:
    """minisign signs with a key whose halves disagree; gz-ia's verifier catches it."""
    files = write_key(tmp_path / "key")
    lines = files.secret.read_text().splitlines()
    raw = bytearray(base64.b64decode(lines[1]))
    raw[100] ^= 1  # inside the public half of the secret key
    files.secret.write_text(f"{lines[0]}\n{base64.b64encode(raw).decode()}\n")
    folder = tmp_path / "dist"
    make_artifacts(folder)

    result = sign_release(run_release, folder, "--key-file", files.secret)

    assert result.exit_code == 1
    assert result.stderr.startswith("Error: SHA256SUMS.minisig: the signature by key ")
    assert result.stderr.endswith(" does not match\n")
    assert sorted(p.name for p in folder.iterdir()) == [
        "gz-ia-1.2.3-linux-amd64.pyz", "gz-ia-1.2.3-linux-arm64.pyz"
    ]


def test_a_file_that_is_no_key_is_named(tmp_path: Path, run_release: RunRelease) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)
    garbage = tmp_path / "garbage.key"
    garbage.write_text("untrusted comment: not a key\nbm90IGEga2V5\n")

    result = sign_release(run_release, folder, "--key-file", garbage)

    assert (result.exit_code, result.stderr) == (
        2, "Error: minisign cannot use the secret key: "
        "base64 conversion failed - was an actual secret key given?\n"
    )


def test_without_the_minisign_program_signing_says_how_to_get_it(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    folder = tmp_path / "dist"
    make_artifacts(folder)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))

    result = sign_release(run_release, folder, "--json", "--key-file", release_key.secret)

    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "NOT_FOUND",
        "message": "the minisign program is needed to sign a release",
        "retryable": False,
        "hint": "install it: apt-get install minisign (Debian, Ubuntu) or brew install minisign",
        "details": {},
    }]  # fmt: skip
