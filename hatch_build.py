"""Compiles the message catalogues (``gzia/locale/*/LC_MESSAGES/gzia.po``) to ``.mo``.

A hatchling build hook, so every way gz-ia is installed gets them with no step of its
own: ``pip install -e .`` (a source checkout, what the tests import) writes each ``.mo``
beside its ``.po``; a wheel (and so build/shiv.sh and the release builds, which install
one) carries them. ``python hatch_build.py`` compiles them in place after a ``.po`` edit.

Standard library only: a machine without GNU gettext can still build. ``msgfmt --check``
(build/test.sh) is the stricter check of the ``.po`` files themselves.
"""

from __future__ import annotations

import ast
import struct
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
LOCALE = ROOT / "gzia" / "locale"
MO_MAGIC = 0x950412DE


def parse_po(text: str) -> dict[str, str]:
    """The translated entries of a ``.po`` text, keyed as a ``.mo`` keys them:
    ``context\\x04msgid`` and ``singular\\x00plural`` (translations joined by ``\\x00``).
    An entry ends at a blank line, or where the next one begins (``msgctxt`` or ``msgid``
    after a ``msgstr``: msgfmt accepts that too)."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    current = ""
    for line in [*text.splitlines(), ""]:
        line = line.strip()
        if line.startswith('"'):
            fields[current] += ast.literal_eval(line)
        elif line and not line.startswith("#"):
            current, _, value = line.partition(" ")
            if current in ("msgctxt", "msgid") and any(f.startswith("msgstr") for f in fields):
                _add_entry(entries, fields)
                fields = {}
            fields[current] = ast.literal_eval(value)
        elif not line and fields:
            _add_entry(entries, fields)
            fields = {}
    return entries


def _add_entry(entries: dict[str, str], fields: dict[str, str]) -> None:
    key = fields["msgid"]
    if "msgid_plural" in fields:
        key += "\x00" + fields["msgid_plural"]
        forms = sorted(name for name in fields if name.startswith("msgstr["))
        value = "\x00".join(fields[name] for name in forms)
    else:
        value = fields["msgstr"]
    if "msgctxt" in fields:
        key = fields["msgctxt"] + "\x04" + key
    if value.strip("\x00"):  # an empty msgstr is untranslated: English is shown
        entries[key] = value


def mo_bytes(entries: dict[str, str]) -> bytes:
    """A GNU ``.mo`` file (little-endian, no hash table) holding ``entries``."""
    keys = sorted(entries, key=lambda k: k.encode())
    ids = [k.encode() for k in keys]
    strs = [entries[k].encode() for k in keys]
    start = 28 + 16 * len(keys)
    table: list[int] = []
    blob = b""
    for text in (*ids, *strs):
        table += [len(text), start + len(blob)]
        blob += text + b"\x00"
    header = struct.pack("<7I", MO_MAGIC, 0, len(keys), 28, 28 + 8 * len(keys), 0, start)
    return header + struct.pack(f"<{len(table)}I", *table) + blob


def compile_catalogues(root: Path = LOCALE) -> list[Path]:
    """Writes each ``.mo`` beside its ``.po``; returns the ``.mo`` paths."""
    written = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = mo_bytes(parse_po(po.read_text(encoding="utf-8")))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
        written.append(mo)
    return written


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # `python hatch_build.py`, or a test importing the compiler
    BuildHookInterface = object


class CataloguesHook(BuildHookInterface):  # type: ignore[misc, valid-type]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        for mo in compile_catalogues(Path(self.root) / "gzia" / "locale"):
            relative = mo.relative_to(self.root).as_posix()
            build_data["force_include"][str(mo)] = relative


if __name__ == "__main__":
    for path in compile_catalogues():
        print(path)  # noqa: T201
