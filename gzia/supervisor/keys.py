"""Key names as tmux's ``send-keys`` knows them, turned into the bytes a terminal sends.

``Enter``, ``Escape``, ``Tab``, ``Space``, ``BSpace``, arrows (``Up`` ...), ``Home``,
``End``, ``PageUp``/``PPage``, ``PageDown``/``NPage``, ``Insert``/``IC``,
``Delete``/``DC``, ``BTab``, ``F1``-``F12``; ``C-x`` is the control character of x,
``M-x`` is Escape then x (both combine: ``M-C-a``). Anything that is not a key name is
sent as the literal text it is, so ``send-keys ID 'ls -l' Enter`` types a command.
"""

from __future__ import annotations

from gzia.contract import InvalidInputError
from gzia.i18n import N_

NAMED: dict[str, bytes] = {
    "enter": b"\r", "escape": b"\x1b", "esc": b"\x1b", "tab": b"\t", "btab": b"\x1b[Z",
    "space": b" ", "bspace": b"\x7f",
    "up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
    "home": b"\x1b[H", "end": b"\x1b[F",
    "pageup": b"\x1b[5~", "ppage": b"\x1b[5~", "pgup": b"\x1b[5~",
    "pagedown": b"\x1b[6~", "npage": b"\x1b[6~", "pgdn": b"\x1b[6~",
    "insert": b"\x1b[2~", "ic": b"\x1b[2~", "delete": b"\x1b[3~", "dc": b"\x1b[3~",
    "f1": b"\x1bOP", "f2": b"\x1bOQ", "f3": b"\x1bOR", "f4": b"\x1bOS",
    "f5": b"\x1b[15~", "f6": b"\x1b[17~", "f7": b"\x1b[18~", "f8": b"\x1b[19~",
    "f9": b"\x1b[20~", "f10": b"\x1b[21~", "f11": b"\x1b[23~", "f12": b"\x1b[24~",
}
PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"


def key_bytes(key: str) -> bytes:
    """One argument of ``send-keys``: a key name, a modified key, or literal text."""
    named = _modified(key)
    return named if named is not None else key.encode("utf-8", "surrogateescape")


def keys_bytes(keys: list[str]) -> bytes:
    return b"".join(key_bytes(key) for key in keys)


def _modified(key: str) -> bytes | None:
    if len(key) > 2 and key[1] == "-" and key[0] in "CcMm":
        rest = _modified(key[2:]) if len(key) > 3 else key[2:].encode("utf-8")
        if rest is None:
            return None
        if key[0] in "Mm":
            return b"\x1b" + rest
        return _control(rest, key)
    return NAMED.get(key.lower())


def _control(base: bytes, key: str) -> bytes:
    if base in {b" ", b"@"}:
        return b"\x00"
    if base == b"?":
        return b"\x7f"
    if len(base) == 1 and 0x40 <= base.upper()[0] <= 0x5F:
        return bytes([base.upper()[0] & 0x1F])
    raise InvalidInputError(N_("unknown key: {key}"), key=key, details={"key": key})


def bracketed_paste(text: bytes) -> bytes:
    """Text as a terminal pastes it: the agent knows it was pasted, not typed (no key in
    it, an Enter included, acts on its own). Paste markers inside it are removed."""
    cleaned = text.replace(PASTE_START, b"").replace(PASTE_END, b"")
    return PASTE_START + cleaned + PASTE_END
