"""Minisign signatures made by the real ``minisign`` tool verify; anything altered does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from gzia.contract import IntegrityError
from gzia.i18n import N_
from gzia.update.minisign import (
    SignatureProblem,
    parse_public_key,
    parse_signature,
    verify,
)
from gzia.update.verify import Sums, configured_keys, parse_sums, verify_sums
from tests.fakes.signing import MinisignKey, verify_with_minisign


@pytest.fixture
def sums(tmp_path: Path) -> Path:
    path = tmp_path / "SHA256SUMS"
    path.write_bytes(b"a" * 64 + b"  gz-ia-2.0.0-linux-amd64.pyz\n")
    return path


@pytest.mark.parametrize("legacy", [False, True], ids=["prehashed-ED", "legacy-Ed"])
def test_real_minisign_signatures_verify(minisign_key: MinisignKey, sums: Path, legacy: bool):
    text = minisign_key.sign(sums, legacy=legacy, trusted_comment="gz-ia 2.0.0")
    signature = parse_signature(text)
    assert signature.algorithm == (b"Ed" if legacy else b"ED")
    assert signature.trusted_comment == "gz-ia 2.0.0"
    key = parse_public_key(minisign_key.pub.read_text())
    assert verify(sums.read_bytes(), signature, [key]) == key
    assert parse_public_key(minisign_key.public_line) == key
    assert key.id_hex in minisign_key.pub.read_text().splitlines()[0]


def test_altered_file_or_trusted_comment_is_rejected(minisign_key: MinisignKey, sums: Path):
    text = minisign_key.sign(sums)
    key = parse_public_key(minisign_key.public_line)
    with pytest.raises(SignatureProblem) as altered:
        verify(sums.read_bytes() + b"\n", parse_signature(text), [key])
    assert altered.value.message == f"the signature by key {key.id_hex} does not match"
    lines = text.splitlines()
    lines[2] = "trusted comment: gz-ia 9.9.9"
    with pytest.raises(SignatureProblem):
        verify(sums.read_bytes(), parse_signature("\n".join(lines)), [key])
    assert verify_with_minisign(sums, Path(str(sums) + ".minisig"), minisign_key.pub) \
        .returncode == 0


def test_wrong_key_and_garbage(minisign_key: MinisignKey, sums: Path, tmp_path: Path):
    other = MinisignKey.generate(tmp_path / "other")
    text = minisign_key.sign(sums)
    with pytest.raises(SignatureProblem) as untrusted:
        verify(sums.read_bytes(), parse_signature(text), [parse_public_key(other.public_line)])
    assert untrusted.value.key == N_("signed by key {key_id}, which is not trusted")
    for garbage in ("", "untrusted comment: x\nnot base64!\n", "a\nb\nc\nd\n"):
        with pytest.raises(SignatureProblem):
            parse_signature(garbage)
    with pytest.raises(SignatureProblem):
        parse_public_key("RWQ=")
    with pytest.raises(IntegrityError) as rejected:
        verify_sums(sums.read_bytes(), b"garbage", [parse_public_key(other.public_line)])
    assert rejected.value.message == "SHA256SUMS signature rejected: not a minisign signature file"


def test_keys_from_lines_and_files(minisign_key: MinisignKey, tmp_path: Path):
    other = MinisignKey.generate(tmp_path / "other")
    keys = configured_keys(f" {minisign_key.public_line} ,{other.pub},")
    assert [k.id_hex for k in keys] == [parse_public_key(minisign_key.public_line).id_hex,
                                        parse_public_key(other.public_line).id_hex]


def test_parse_sums_accepts_text_and_binary_markers_and_counts_other_lines():
    text = (b"A" * 64 + b"  one.pyz\n" + b"b" * 64 + b" *two.pyz\r\n\n# comment\nbad line\n"
            + b"c" * 64 + b"  one.pyz\n")
    assert parse_sums(text) == Sums({"one.pyz": "a" * 64, "two.pyz": "b" * 64}, (4, 5, 6))


def test_key_ids_print_as_minisign_prints_them():
    from gzia.update.minisign import key_id_text

    # minisign writes "%" PRIX64 of the little-endian key number: no zero padding
    assert key_id_text(bytes.fromhex("3412000000000000")) == "1234"
    assert key_id_text(bytes.fromhex("efcdab8967452301")) == "123456789ABCDEF"
