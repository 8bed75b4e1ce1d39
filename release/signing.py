"""The sign step: write SHA256SUMS over the artifacts and sign it into SHA256SUMS.minisig.

Keys are made and used by the ``minisign`` program (Debian package ``minisign``; CI and the
release workflow install it); every signature is then checked by gz-ia's own verifier
(``gzia.update.minisign``) before it is kept, so what the tooling writes is what an installed
gz-ia accepts.
"""

from __future__ import annotations

import base64
import binascii
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.update.minisign import PublicKey, SignatureProblem, parse_public_key, parse_signature
from gzia.update.minisign import verify as verify_signature
from release import artifacts, sums
from release.errors import ReleaseError

KEY_ENV = "GZ_RELEASE_MINISIGN_KEY"
KEY_FILE_ENV = "GZ_RELEASE_MINISIGN_KEY_FILE"
PASSWORD_ENV = "GZ_RELEASE_MINISIGN_PASSWORD"  # noqa: S105 - a variable name, not a secret
UNTRUSTED_COMMENT = "signature from the gz-ia release key"
KEY_COMMENT = "untrusted comment: minisign secret key\n"
MINISIGN_TIMEOUT = 300  # a password-protected key costs a 1 GiB scrypt


@dataclass(frozen=True)
class SigningKey:
    """A secret key file minisign can read, and its password."""

    secret: Path
    password: str | None = field(repr=False)

    @cached_property
    def public(self) -> PublicKey:
        """The public half (``minisign -R``: one more scrypt for a password-protected key,
        so it is asked for only when no trusted key has the signature's key id)."""
        public = self.secret.with_suffix(".pub")
        run_minisign(["-R", "-s", self.secret, "-p", public], self.password)
        return read_public_key(public)


def minisign_program() -> str:
    found = shutil.which("minisign")
    if found is None:
        raise ReleaseError(
            "NOT_FOUND", "the minisign program is needed to sign a release",
            hint="install it: apt-get install minisign (Debian, Ubuntu) or brew install minisign",
        )  # fmt: skip
    return found


def run_minisign(args: list[str | Path], password: str | None) -> str:
    """Run ``minisign`` with ``args`` (the password, if any, on its standard input)."""
    argv = [minisign_program(), *map(str, args)]
    try:
        done = subprocess.run(
            argv, input=f"{password}\n" if password else "", capture_output=True, text=True,
            timeout=MINISIGN_TIMEOUT, check=False, env={"PATH": os.defpath, "LC_ALL": "C"},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ReleaseError("TIMEOUT", "minisign took too long") from None
    if done.returncode != 0:
        raise _minisign_failure(done.stderr)
    return done.stdout


def _minisign_failure(stderr: str) -> ReleaseError:
    said = [line for line in stderr.replace("Password: ", "\n").splitlines() if line.strip()]
    reason = said[-1].strip() if said else "no reason given"
    if "wrong password" in reason.lower():
        return ReleaseError("INTEGRITY", "the password of the minisign secret key is wrong")
    return ReleaseError("INVALID_INPUT", f"minisign cannot use the secret key: {reason}")


def _is_encrypted(text: str) -> bool:
    """Whether a secret key is password-protected (its key derivation is scrypt, ``Sc``)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("untrusted comment:")]
    try:
        raw = base64.b64decode(lines[0], validate=True) if lines else b""
    except (binascii.Error, ValueError):
        return False  # minisign says what is wrong with it
    return raw[2:4] == b"Sc"


def _key_text(key_file: Path | None, env: Mapping[str, str]) -> str:
    """``--key-file``, else ``$GZ_RELEASE_MINISIGN_KEY`` (the key file's text or its
    base64 line), else the file named by ``$GZ_RELEASE_MINISIGN_KEY_FILE``."""
    if key_file is None and env.get(KEY_ENV, "").strip():
        text = env[KEY_ENV].strip() + "\n"
        return text if text.startswith("untrusted comment:") else KEY_COMMENT + text
    if key_file is None and env.get(KEY_FILE_ENV):
        key_file = Path(env[KEY_FILE_ENV])
    if key_file is None:
        raise ReleaseError(
            "INVALID_INPUT",
            "no signing key: pass --key-file or set GZ_RELEASE_MINISIGN_KEY",
            hint="docs/release.md explains how to create the key",
        )
    try:
        return key_file.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReleaseError("IO", f"cannot read the signing key {key_file}: {exc}") from None


@contextmanager
def signing_key(key_file: Path | None, env: Mapping[str, str]) -> Iterator[SigningKey]:
    """The signing key, copied into a private scratch directory for minisign to read; a
    password-protected key is opened with ``$GZ_RELEASE_MINISIGN_PASSWORD``."""
    text, password = _key_text(key_file, env), env.get(PASSWORD_ENV) or None
    if password is None and _is_encrypted(text):
        raise ReleaseError(
            "INVALID_INPUT", "the minisign secret key is encrypted with a password",
            hint="set GZ_RELEASE_MINISIGN_PASSWORD, or use a key made by: minisign -G -W",
        )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="gz-ia-sign.") as scratch:  # mode 0700
        secret = Path(scratch) / "release.key"
        secret.write_text(text, encoding="ascii")
        yield SigningKey(secret, password)


def read_public_key(path: Path) -> PublicKey:
    try:
        return parse_public_key(path.read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError, SignatureProblem) as exc:
        raise ReleaseError("INVALID_INPUT", f"{path} is not a minisign public key: {exc}") from None


def load_trusted_keys(keys_dir: Path) -> list[PublicKey]:
    """The public keys gz-ia trusts: every ``*.pub`` in ``keys_dir`` (release/keys)."""
    return [read_public_key(p) for p in sorted(keys_dir.glob("*.pub"))]


def trusted_comment(env: Mapping[str, str]) -> str:
    """minisign's own layout; ``SOURCE_DATE_EPOCH`` pins the time for repeatable builds."""
    stamp = env.get("SOURCE_DATE_EPOCH") or str(int(time.time()))
    if not stamp.isdigit():
        raise ReleaseError("INVALID_INPUT", f"SOURCE_DATE_EPOCH must be a number, got {stamp!r}")
    return f"timestamp:{stamp}\tfile:{artifacts.SUMS_NAME}\thashed"


def sign(
    text: str, key: SigningKey, comment: str, trusted: list[PublicKey]
) -> tuple[str, PublicKey]:
    """The ``.minisig`` text minisign writes for ``text``, and the key that it verifies
    with: the trusted key of its key id, else the signing key's own public half."""
    with tempfile.TemporaryDirectory(prefix="gz-ia-sign.") as scratch:
        data, signature = Path(scratch) / artifacts.SUMS_NAME, Path(scratch) / "sums.minisig"
        data.write_text(text, encoding="ascii")
        run_minisign(
            ["-S", "-s", key.secret, "-m", data, "-x", signature, "-t", comment,
             "-c", UNTRUSTED_COMMENT], key.password,
        )  # fmt: skip
        signed = signature.read_text(encoding="ascii")
    key_id = _signature_key_id(signed)
    candidates = [k for k in trusted if k.key_id == key_id] or [key.public]
    return signed, check_signature(text.encode(), signed, candidates)


def _signature_key_id(signature: str) -> bytes:
    try:
        return parse_signature(signature).key_id
    except SignatureProblem as problem:
        raise ReleaseError("INTEGRITY", f"SHA256SUMS.minisig: {problem.message}") from None


def check_signature(data: bytes, signature: str, keys: list[PublicKey]) -> PublicKey:
    """The key of ``keys`` that signed ``data``; ``INTEGRITY`` otherwise."""
    try:
        return verify_signature(data, parse_signature(signature), keys)
    except SignatureProblem as problem:
        raise ReleaseError("INTEGRITY", f"SHA256SUMS.minisig: {problem.message}") from None


def sign_release(
    release_dir: Path,
    version: str,
    key: SigningKey | None,
    trusted_keys: list[PublicKey],
    *,
    dry_run: bool,
    env: Mapping[str, str],
) -> dict[str, object]:
    """Write SHA256SUMS and its signature; the signature is verified before it is kept.

    In a dry run ``key`` may be ``None``: nothing is written and the report says what would be.
    """
    files = artifacts.signed_files(release_dir, version)
    text = sums.render(files)
    report: dict[str, object] = {
        "sums": artifacts.SUMS_NAME,
        "files": [{"name": p.name, "sha256": sums.file_sha256(p)} for p in files],
        "key_id": key.public.id_hex if dry_run and key else None,
        "trusted": dry_run and key is not None and key.public in trusted_keys,
        "written": [],
    }
    if dry_run or key is None:
        return report
    signature, signer = sign(text, key, trusted_comment(env), trusted_keys)
    report.update(key_id=signer.id_hex, trusted=signer in trusted_keys)
    write_atomic(release_dir / artifacts.SUMS_NAME, text.encode("ascii"))
    write_atomic(release_dir / artifacts.SIGNATURE_NAME, signature.encode("ascii"))
    report["written"] = [artifacts.SUMS_NAME, artifacts.SIGNATURE_NAME]
    return report


def verify_release(release_dir: Path, version: str, trusted_keys: list[PublicKey]) -> PublicKey:
    """The local release is complete, its hashes match and a trusted key signed them."""
    files = artifacts.release_files(release_dir, version)
    if not trusted_keys:
        raise ReleaseError(
            "INTEGRITY",
            "no trusted public key: gz-ia would refuse to install this release",
            hint="add the release key's .pub file to release/keys/ (docs/release.md)",
        )
    text = (release_dir / artifacts.SUMS_NAME).read_text(encoding="ascii")
    signature = (release_dir / artifacts.SIGNATURE_NAME).read_text(encoding="ascii")
    signer = check_signature(text.encode(), signature, trusted_keys)
    sums.check(release_dir, text, [p.name for p in files[:-2]])
    return signer


def generate_key(secret: Path, public: Path) -> PublicKey:
    """A new unencrypted key pair made by ``minisign -G -W``; never overwrites a file."""
    for path in (secret, public):
        if path.exists():
            raise ReleaseError("CONFLICT", f"{path} exists; not overwriting a key")
    run_minisign(["-G", "-W", "-s", secret, "-p", public], None)
    return read_public_key(public)
