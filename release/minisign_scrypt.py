"""Password-protected minisign secret keys: the keys' 104 secret bytes are XORed with an
scrypt stream (libsodium's ``crypto_pwhash_scryptsalsa208sha256``) of the password.

libsodium turns (opslimit, memlimit) into scrypt's (N, r, p) with its ``pickparams`` rule,
reproduced here; ``minisign -G`` stores opslimit 2^25 and memlimit 2^30: N=2^20, r=8, p=1.
"""

from __future__ import annotations

import hashlib

KDF_SCRYPT = b"Sc"
MAX_SCRYPT_MEMORY = 2**31 - 1  # Python's hashlib.scrypt limit


def scrypt_parameters(opslimit: int, memlimit: int) -> tuple[int, int, int]:
    """(N, r, p) as libsodium picks them for ``crypto_pwhash_scryptsalsa208sha256``."""
    opslimit = max(opslimit, 32768)
    r = 8
    if opslimit < memlimit // 32:
        p, max_n = 1, opslimit // (r * 4)
    else:
        p, max_n = 0, memlimit // (r * 128)
    n_log2 = 1
    while n_log2 < 63 and (1 << n_log2) <= max_n // 2:
        n_log2 += 1
    if p == 0:
        p = min((opslimit // 4) // (1 << n_log2), 0x3FFFFFFF) // r
    return 1 << n_log2, r, p


def decrypt(raw: bytes, password: str) -> bytes:
    """The 104 bytes key id | secret key | checksum of an encrypted secret key file."""
    salt = raw[6:38]
    opslimit = int.from_bytes(raw[38:46], "little")
    memlimit = int.from_bytes(raw[46:54], "little")
    n, r, p = scrypt_parameters(opslimit, memlimit)
    memory = min(128 * r * (n + p + 2) + (1 << 20), MAX_SCRYPT_MEMORY)
    stream = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, maxmem=memory, dklen=104)
    return bytes(a ^ b for a, b in zip(raw[54:158], stream, strict=True))
