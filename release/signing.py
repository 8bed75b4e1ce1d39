"""The sign step: write SHA256SUMS over the artifacts and sign it into SHA256SUMS.minisig."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from release import artifacts, minisign, sums
from release.errors import ReleaseError

KEY_ENV = "GZ_RELEASE_MINISIGN_KEY"
KEY_FILE_ENV = "GZ_RELEASE_MINISIGN_KEY_FILE"
PASSWORD_ENV = "GZ_RELEASE_MINISIGN_PASSWORD"  # noqa: S105 - a variable name, not a secret
UNTRUSTED_COMMENT = "signature from the gz-ia release key"


def load_secret_key(key_file: Path | None, env: Mapping[str, str]) -> minisign.SecretKey:
    """The signing key: ``--key-file``, else ``$GZ_RELEASE_MINISIGN_KEY`` (the key file's
    text or its base64 line), else the file named by ``$GZ_RELEASE_MINISIGN_KEY_FILE``;
    a password-protected key is opened with ``$GZ_RELEASE_MINISIGN_PASSWORD``."""
    password = env.get(PASSWORD_ENV)
    if key_file is None and env.get(KEY_ENV, "").strip():
        return minisign.parse_secret_key(env[KEY_ENV], password)
    if key_file is None and env.get(KEY_FILE_ENV):
        key_file = Path(env[KEY_FILE_ENV])
    if key_file is None:
        raise ReleaseError(
            "INVALID_INPUT",
            "no signing key: pass --key-file or set GZ_RELEASE_MINISIGN_KEY",
            hint="docs/release.md explains how to create the key",
        )
    try:
        text = key_file.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReleaseError("IO", f"cannot read the signing key {key_file}: {exc}") from None
    return minisign.parse_secret_key(text, password)


def load_trusted_keys(keys_dir: Path) -> list[minisign.PublicKey]:
    """The public keys gz-ia trusts: every ``*.pub`` in ``keys_dir`` (release/keys)."""
    return [minisign.parse_public_key(p.read_text()) for p in sorted(keys_dir.glob("*.pub"))]


def trusted_comment(env: Mapping[str, str]) -> str:
    """minisign's own layout; ``SOURCE_DATE_EPOCH`` pins the time for repeatable builds."""
    stamp = env.get("SOURCE_DATE_EPOCH") or str(int(time.time()))
    return f"timestamp:{stamp}\tfile:{artifacts.SUMS_NAME}\thashed"


def sign_release(
    release_dir: Path,
    version: str,
    key: minisign.SecretKey | None,
    trusted_keys: list[minisign.PublicKey],
    *,
    dry_run: bool,
    env: Mapping[str, str],
) -> dict[str, object]:
    """Write SHA256SUMS and its signature; the signature is verified before it is kept.

    In a dry run ``key`` may be ``None``: nothing is written and the report says what would be.
    """
    files = artifacts.find_artifacts(release_dir, version)
    text = sums.render(files)
    report: dict[str, object] = {
        "sums": artifacts.SUMS_NAME,
        "files": [{"name": p.name, "sha256": sums.file_sha256(p)} for p in files],
        "key_id": key.public().key_id_hex if key else None,
        "trusted": key is not None and any(k.key_id == key.key_id for k in trusted_keys),
        "written": [],
    }
    if dry_run or key is None:
        return report
    signature = minisign.sign(text.encode(), key, trusted_comment(env), UNTRUSTED_COMMENT)
    minisign.verify(text.encode(), signature, [key.public()])
    _write_atomic(release_dir / artifacts.SUMS_NAME, text)
    _write_atomic(release_dir / artifacts.SIGNATURE_NAME, signature)
    report["written"] = [artifacts.SUMS_NAME, artifacts.SIGNATURE_NAME]
    return report


def _write_atomic(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    with temp.open("w", encoding="ascii", newline="\n") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())
    temp.replace(path)


def verify_release(
    release_dir: Path, version: str, trusted_keys: list[minisign.PublicKey]
) -> minisign.Verified:
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
    verified = minisign.verify(text.encode(), signature, trusted_keys)
    sums.check(release_dir, text, [p.name for p in files[:-2]])
    return verified
