"""Minisign keys and signatures (Ed25519), written and read without the minisign program.

Formats, as minisign 0.11 writes them (all integers little-endian):

- public key: ``"Ed" | key_id[8] | public_key[32]``
- secret key: ``"Ed" | kdf[2] | "B2" | salt[32] | opslimit[8] | memlimit[8] |
  key_id[8] | secret_key[64] | checksum[32]``; kdf ``\\0\\0`` is an unencrypted key (what
  ``minisign -G -W`` writes); the checksum is BLAKE2b-256 of
  ``"Ed" | key_id | secret_key`` (``minisign -W`` leaves it zeroed); a password-protected
  key (kdf ``"Sc"``) has those 104 bytes encrypted (release.minisign_scrypt)
- signature: ``"ED" | key_id[8] | Ed25519(BLAKE2b-512(file))[64]`` (the prehashed variant),
  then the trusted comment and the global signature ``Ed25519(signature | trusted_comment)``.

Each value sits base64-encoded on the line after its ``untrusted comment:`` line.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from dataclasses import dataclass

from release.errors import ReleaseError

KEY_ALG = b"Ed"
PREHASHED_ALG = b"ED"
KDF_NONE = b"\x00\x00"
CHECKSUM_ALG = b"B2"
SECRET_KEY_LENGTH = 158
PUBLIC_KEY_LENGTH = 42
SIGNATURE_LENGTH = 74
UNTRUSTED = "untrusted comment: "
TRUSTED = "trusted comment: "


@dataclass(frozen=True)
class PublicKey:
    key_id: bytes
    public_key: bytes

    @property
    def key_id_hex(self) -> str:
        """The id as minisign prints it (a little-endian integer in upper-case hex)."""
        return f"{int.from_bytes(self.key_id, 'little'):X}"

    def to_text(self) -> str:
        blob = base64.b64encode(KEY_ALG + self.key_id + self.public_key).decode()
        return f"{UNTRUSTED}minisign public key {self.key_id_hex}\n{blob}\n"


@dataclass(frozen=True)
class SecretKey:
    key_id: bytes
    seed: bytes

    def public(self) -> PublicKey:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        private = Ed25519PrivateKey.from_private_bytes(self.seed)
        raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return PublicKey(self.key_id, raw)

    def sign_raw(self, message: bytes) -> bytes:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return Ed25519PrivateKey.from_private_bytes(self.seed).sign(message)

    def to_text(self) -> str:
        """The unencrypted secret key file, with its checksum filled in."""
        secret = self.seed + self.public().public_key
        body = KEY_ALG + self.key_id + secret
        checksum = hashlib.blake2b(body, digest_size=32).digest()
        header = KEY_ALG + KDF_NONE + CHECKSUM_ALG + bytes(32 + 8 + 8)
        blob = base64.b64encode(header + self.key_id + secret + checksum).decode()
        return f"{UNTRUSTED}minisign secret key (unencrypted)\n{blob}\n"


def generate_key() -> SecretKey:
    """A new random key pair (the secret key knows its public half)."""
    return SecretKey(key_id=os.urandom(8), seed=os.urandom(32))


def _payload(text: str, what: str) -> bytes:
    """The base64 line of a minisign file, or of a bare base64 string."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if lines and lines[0].startswith(UNTRUSTED):
        lines = lines[1:]
    if not lines:
        raise ReleaseError("INVALID_INPUT", f"the {what} is empty")
    try:
        return base64.b64decode(lines[0], validate=True)
    except (binascii.Error, ValueError):
        raise ReleaseError("INVALID_INPUT", f"the {what} is not valid base64") from None


def parse_public_key(text: str) -> PublicKey:
    """A public key from a ``.pub`` file's text or from its base64 line alone."""
    raw = _payload(text, "minisign public key")
    if len(raw) != PUBLIC_KEY_LENGTH or raw[:2] != KEY_ALG:
        raise ReleaseError("INVALID_INPUT", "not a minisign Ed25519 public key")
    return PublicKey(key_id=raw[2:10], public_key=raw[10:])


def _secret_bytes(raw: bytes, password: str | None) -> bytes:
    """key id | secret key | checksum, decrypted with ``password`` if the key has one."""
    from release import minisign_scrypt

    if raw[2:4] == KDF_NONE:
        return raw[54:158]
    if raw[2:4] != minisign_scrypt.KDF_SCRYPT:
        raise ReleaseError("INVALID_INPUT", "unknown key derivation in the minisign secret key")
    if password is None:
        raise ReleaseError(
            "INVALID_INPUT",
            "the minisign secret key is encrypted with a password",
            hint="set GZ_RELEASE_MINISIGN_PASSWORD, or use a key made by: minisign -G -W",
        )
    return minisign_scrypt.decrypt(raw, password)


def parse_secret_key(text: str, password: str | None = None) -> SecretKey:
    """A secret key as ``minisign -G`` writes it: unencrypted (``-W``) or with a password."""
    raw = _payload(text, "minisign secret key")
    if len(raw) != SECRET_KEY_LENGTH or raw[:2] != KEY_ALG or raw[4:6] != CHECKSUM_ALG:
        raise ReleaseError("INVALID_INPUT", "not a minisign Ed25519 secret key")
    plain = _secret_bytes(raw, password)
    key_id, secret, checksum = plain[:8], plain[8:72], plain[72:]
    if any(checksum) or raw[2:4] != KDF_NONE:  # minisign -W leaves the checksum zeroed
        expected = hashlib.blake2b(KEY_ALG + key_id + secret, digest_size=32).digest()
        if not hmac.compare_digest(expected, checksum):
            wrong = "the password is wrong or " if raw[2:4] != KDF_NONE else ""
            raise ReleaseError(
                "INTEGRITY", f"{wrong}the minisign secret key's checksum does not match"
            )
    key = SecretKey(key_id=key_id, seed=secret[:32])
    if key.public().public_key != secret[32:]:
        raise ReleaseError("INTEGRITY", "the minisign secret key is damaged (halves disagree)")
    return key


def sign(data: bytes, key: SecretKey, trusted_comment: str, untrusted_comment: str) -> str:
    """A ``.minisig`` file's text for ``data`` (prehashed, with the global signature)."""
    for comment in (trusted_comment, untrusted_comment):
        if "\n" in comment or "\r" in comment:
            raise ReleaseError("INVALID_INPUT", "a minisign comment must be a single line")
    signature = key.sign_raw(hashlib.blake2b(data, digest_size=64).digest())
    global_signature = key.sign_raw(signature + trusted_comment.encode())
    blob = base64.b64encode(PREHASHED_ALG + key.key_id + signature).decode()
    return (
        f"{UNTRUSTED}{untrusted_comment}\n{blob}\n"
        f"{TRUSTED}{trusted_comment}\n{base64.b64encode(global_signature).decode()}\n"
    )


@dataclass(frozen=True)
class Verified:
    key: PublicKey
    trusted_comment: str


def verify(data: bytes, signature_text: str, trusted_keys: list[PublicKey]) -> Verified:
    """Check a ``.minisig`` over ``data`` with one of ``trusted_keys``; raise ``INTEGRITY``."""
    lines = signature_text.splitlines()
    if len(lines) < 4 or not lines[0].startswith(UNTRUSTED) or not lines[2].startswith(TRUSTED):
        raise ReleaseError("INTEGRITY", "the signature file is not in minisign format")
    raw = _payload(lines[1], "signature")
    if len(raw) != SIGNATURE_LENGTH or raw[:2] != PREHASHED_ALG:
        raise ReleaseError("INTEGRITY", "the signature is not a prehashed minisign signature")
    key = next((k for k in trusted_keys if k.key_id == raw[2:10]), None)
    if key is None:
        unknown = PublicKey(raw[2:10], b"").key_id_hex
        raise ReleaseError("INTEGRITY", f"the signature's key {unknown} is not a trusted key")
    trusted_comment = lines[2][len(TRUSTED) :]
    global_signature = _payload(lines[3], "global signature")
    digest = hashlib.blake2b(data, digest_size=64).digest()
    if not _valid(key, raw[10:], digest) or not _valid(
        key, global_signature, raw[10:] + trusted_comment.encode()
    ):
        raise ReleaseError("INTEGRITY", f"the signature does not verify with key {key.key_id_hex}")
    return Verified(key=key, trusted_comment=trusted_comment)


def _valid(key: PublicKey, signature: bytes, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key.public_key).verify(signature, message)
    except InvalidSignature:
        return False
    return True
