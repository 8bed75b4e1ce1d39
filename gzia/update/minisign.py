"""Minisign public keys and signatures (Ed25519), verified with ``cryptography``.

Key line: base64 of ``"Ed" | key id (8 bytes) | public key (32)``. Signature file:
an untrusted comment line, base64 of ``"Ed"|"ED" | key id | signature (64)``, a
``trusted comment: `` line and base64 of the global signature (64) over the signature
bytes followed by the trusted comment. ``Ed`` signs the file itself; ``ED`` (the default
of minisign 0.10+) signs its BLAKE2b-512 hash.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from gzia.i18n import N_
from gzia.update.errors import SourceFailure

TRUSTED_PREFIX = "trusted comment: "


class SignatureProblem(SourceFailure):
    """A malformed key or signature, or one that does not verify."""


@dataclass(frozen=True)
class PublicKey:
    key_id: bytes
    key: bytes

    @property
    def id_hex(self) -> str:
        return key_id_text(self.key_id)


@dataclass(frozen=True)
class Signature:
    algorithm: bytes
    key_id: bytes
    signature: bytes
    trusted_comment: str
    global_signature: bytes


def key_id_text(key_id: bytes) -> str:
    """A key id as minisign prints it: a little-endian integer in upper-case hex."""
    return format(int.from_bytes(key_id, "little"), "X")


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SignatureProblem(N_("invalid base64 data"), reason_code="update.bad_base64") from exc


def parse_public_key(text: str) -> PublicKey:
    """A key line as ``minisign -G`` writes it, or a whole ``.pub`` file."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("untrusted comment:")]
    raw = _b64(lines[-1]) if lines else b""
    if len(raw) != 42 or raw[:2] != b"Ed":
        raise SignatureProblem(N_("not a minisign Ed25519 public key"),
                               reason_code="update.bad_public_key")
    return PublicKey(raw[2:10], raw[10:])


def parse_signature(text: str) -> Signature:
    lines = [ln.rstrip("\r") for ln in text.splitlines()]
    if len(lines) < 4 or not lines[2].startswith(TRUSTED_PREFIX):
        raise SignatureProblem(N_("not a minisign signature file"),
                               reason_code="update.bad_signature_file")
    raw = _b64(lines[1])
    global_sig = _b64(lines[3])
    if len(raw) != 74 or raw[:2] not in (b"Ed", b"ED") or len(global_sig) != 64:
        raise SignatureProblem(N_("not a minisign signature file"),
                               reason_code="update.bad_signature_file")
    return Signature(raw[:2], raw[2:10], raw[10:], lines[2][len(TRUSTED_PREFIX):], global_sig)


def verify(data: bytes, signature: Signature, keys: list[PublicKey]) -> PublicKey:
    """The trusted key that signed ``data``; raises :class:`SignatureProblem` otherwise."""
    # lazy: start-up speed (cryptography only when a signature is checked)
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = next((k for k in keys if k.key_id == signature.key_id), None)
    if key is None:
        raise SignatureProblem(N_("signed by key {key_id}, which is not trusted"),
                               reason_code="update.untrusted_key",
                               key_id=key_id_text(signature.key_id))
    message = data if signature.algorithm == b"Ed" else hashlib.blake2b(data).digest()
    verifier = Ed25519PublicKey.from_public_bytes(key.key)
    try:
        verifier.verify(signature.signature, message)
        verifier.verify(signature.global_signature,
                        signature.signature + signature.trusted_comment.encode())
    except InvalidSignature as exc:
        raise SignatureProblem(N_("the signature by key {key_id} does not match"),
                               reason_code="update.signature_mismatch", key_id=key.id_hex) from exc
    return key
