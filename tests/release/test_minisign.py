"""Minisign keys and signatures written by release/ against the real minisign program
(Debian package ``minisign``) and against gz-ia's own verifier."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest

from release import minisign
from release.errors import ReleaseError
from tests.fakes.signing import MinisignKey, minisign_binary, verify_with_minisign
from tests.release.conftest import KeyFiles, RunRelease, make_artifacts, sign_release, write_key

TRUSTED = "timestamp:1767225600\tfile:SHA256SUMS\thashed"


def sign_file(key: minisign.SecretKey, path: Path) -> Path:
    signature = path.with_name(path.name + ".minisig")
    signature.write_text(minisign.sign(path.read_bytes(), key, TRUSTED, "release test"))
    return signature


def test_minisign_accepts_a_signature_made_with_a_generated_key(
    tmp_path: Path, release_key: KeyFiles
) -> None:
    data = tmp_path / "SHA256SUMS"
    data.write_bytes(b"0" * 64 + b"  gz-ia-1.2.3-linux-amd64.pyz\n")
    signature = sign_file(release_key.key, data)

    done = verify_with_minisign(data, signature, release_key.public)

    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"Signature and comment signature verified\nTrusted comment: {TRUSTED}\n"
    )


def test_signature_layout_is_prehashed_with_the_key_id(
    tmp_path: Path, release_key: KeyFiles
) -> None:
    text = minisign.sign(b"payload", release_key.key, TRUSTED, "release test")
    lines = text.splitlines()
    raw = base64.b64decode(lines[1])

    assert lines[0] == "untrusted comment: release test"
    assert lines[2] == f"trusted comment: {TRUSTED}"
    assert (len(lines), len(raw), raw[:2], raw[2:10]) == (4, 74, b"ED", release_key.key.key_id)
    assert len(base64.b64decode(lines[3])) == 64
    assert text.endswith("\n")


def test_a_key_made_by_minisign_signs_what_minisign_verifies(tmp_path: Path) -> None:
    made = MinisignKey.generate(tmp_path / "made")  # minisign -G -W
    key = minisign.parse_secret_key(made.sec.read_text())
    assert key.public().to_text() == made.pub.read_text()
    data = tmp_path / "SHA256SUMS"
    data.write_text("abc\n")

    done = verify_with_minisign(data, sign_file(key, data), made.pub)

    assert done.returncode == 0, done.stderr


def test_a_key_written_here_is_usable_by_minisign(tmp_path: Path, release_key: KeyFiles) -> None:
    data = tmp_path / "file"
    data.write_text("signed by minisign with our key file\n")
    signature = tmp_path / "file.minisig"
    argv = [
        minisign_binary(),
        "-S",
        "-W",
        "-s",
        str(release_key.secret),
        "-m",
        str(data),
        "-x",
        str(signature),
    ]
    subprocess.run(argv, check=True, capture_output=True, timeout=30)

    verified = minisign.verify(data.read_bytes(), signature.read_text(), [release_key.key.public()])

    assert verified.key == release_key.key.public()
    assert verified.trusted_comment.startswith("timestamp:")


def test_gz_ia_verifier_accepts_the_signature(release_key: KeyFiles) -> None:
    from gzia.update import minisign as client

    text = minisign.sign(b"sums\n", release_key.key, TRUSTED, "release test")
    key = client.parse_public_key(release_key.public.read_text())

    assert client.verify(b"sums\n", client.parse_signature(text), [key]) == key


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("data", "the signature does not verify with key"),
        ("trusted_comment", "the signature does not verify with key"),
        ("key", "is not a trusted key"),
    ],
)
def test_verify_rejects_tampering(
    tmp_path: Path, release_key: KeyFiles, change: str, message: str
) -> None:
    text = minisign.sign(b"data", release_key.key, TRUSTED, "release test")
    data, keys = b"data", [release_key.key.public()]
    if change == "data":
        data = b"datA"
    elif change == "trusted_comment":
        text = text.replace("hashed", "hashed\tgz-ia 9.9.9")
    else:
        keys = [minisign.generate_key().public()]

    with pytest.raises(ReleaseError) as raised:
        minisign.verify(data, text, keys)

    assert raised.value.code == "INTEGRITY"
    assert message in raised.value.message


def test_an_encrypted_key_without_a_password_says_how_to_give_one(
    release_key: KeyFiles,
) -> None:
    raw = bytearray(base64.b64decode(release_key.secret.read_text().splitlines()[1]))
    raw[2:4] = b"Sc"  # the scrypt KDF minisign uses for password-protected keys
    text = "untrusted comment: minisign encrypted secret key\n" + base64.b64encode(raw).decode()

    with pytest.raises(ReleaseError) as raised:
        minisign.parse_secret_key(text)

    assert raised.value.to_json() == {
        "code": "INVALID_INPUT",
        "message": "the minisign secret key is encrypted with a password",
        "hint": "set GZ_RELEASE_MINISIGN_PASSWORD, or use a key made by: minisign -G -W",
    }


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


def test_a_password_protected_key_from_minisign_signs(
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


def test_a_wrong_password_is_named(encrypted_key: tuple[Path, Path]) -> None:
    with pytest.raises(ReleaseError) as raised:
        minisign.parse_secret_key(encrypted_key[0].read_text(), "wrong horse")

    assert (raised.value.code, raised.value.message) == (
        "INTEGRITY",
        "the password is wrong or the minisign secret key's checksum does not match",
    )


def test_scrypt_parameters_follow_libsodium() -> None:
    from release.minisign_scrypt import scrypt_parameters

    assert scrypt_parameters(2**25, 2**30) == (2**20, 8, 1)  # what minisign -G stores
    assert scrypt_parameters(2**19, 2**30) == (2**14, 8, 1)  # few operations: p=1, N by ops
    assert scrypt_parameters(1, 2**24) == (2**10, 8, 1)  # opslimit raised to 32768


def test_a_damaged_secret_key_is_refused(tmp_path: Path) -> None:
    files = write_key(tmp_path)
    raw = bytearray(base64.b64decode(files.secret.read_text().splitlines()[1]))
    raw[100] ^= 1  # inside the secret key, covered by the checksum

    with pytest.raises(ReleaseError) as raised:
        minisign.parse_secret_key(base64.b64encode(raw).decode())

    assert (raised.value.code, raised.value.message) == (
        "INTEGRITY",
        "the minisign secret key's checksum does not match",
    )


def test_public_key_file_matches_minisign_layout(release_key: KeyFiles) -> None:
    public = release_key.key.public()
    lines = release_key.public.read_text().splitlines()

    assert lines[0] == f"untrusted comment: minisign public key {public.key_id_hex}"
    assert base64.b64decode(lines[1]) == b"Ed" + public.key_id + public.public_key
    assert minisign.parse_public_key(lines[1]) == public
