"""The Spanish catalogue says what the code says, and the language follows the environment.

The catalogue is gzia/locale/es/LC_MESSAGES/gzia.po: msgid is the English text written in
the code, msgstr its Spanish. In the code, a message is the text of a ``gettext``,
``ngettext``, ``pgettext``, ``N_`` or ``NC_`` call (the msgids), or a help text or
placeholder click shows (tests/cli/test_help.py walks those).
"""

from __future__ import annotations

import ast
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

import gzia
import gzia.i18n
from gzia.i18n import CONTEXT, NC_, NN_, detect_language, gettext, ngettext, pgettext, translations
from hatch_build import LOCALE, mo_bytes, parse_po

PO = LOCALE / "es" / "LC_MESSAGES" / "gzia.po"
MARKERS = {"gettext": 1, "N_": 1, "ngettext": 2, "NN_": 2, "pgettext": 2, "NC_": 2}
CONTEXT_MARKERS = {"pgettext", "NC_"}


def catalogue() -> dict[str, str]:
    """msgid (``context\\x04msgid``; a plural's ``singular\\x00plural``) -> msgstr."""
    return {msgid: msgstr for msgid, msgstr in parse_po(PO.read_text(encoding="utf-8")).items()
            if msgid}  # not the header


def catalogue_msgids() -> set[str]:
    """Every message as the code writes it: context and text, singular and plural apart."""
    return {part for key in catalogue() if key for part in key.split("\x00")}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_msgid_and_msgstr_have_the_same_placeholders() -> None:
    for msgid, msgstr in catalogue().items():
        english = msgid.rpartition(CONTEXT)[2].split("\x00")
        spanish = msgstr.split("\x00")
        if len(english) == 2:  # a count: the singular may say "1" for {count}
            assert fields(spanish[0]) - {"count"} == fields(english[0]) - {"count"}, msgid
            assert fields(spanish[1]) == fields(english[1]), msgid
        else:
            assert fields(spanish[0]) == fields(english[0]), msgid


def test_every_entry_is_translated() -> None:
    text = PO.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = text.count("\nmsgid ") + text.startswith("msgid ")
    assert len(catalogue()) == entries - 1  # the header is the one entry with msgid ""


def test_an_entry_without_a_blank_line_before_the_next_is_kept() -> None:
    """msgfmt accepts two entries with no blank line between them (a merge can leave
    that); the build must not drop the first."""
    text = ('msgid "one"\nmsgstr "uno"\nmsgctxt "c"\nmsgid "two"\nmsgstr "dos"\n'
            'msgid "three"\nmsgid_plural "threes"\nmsgstr[0] "tres"\nmsgstr[1] "treses"\n')
    assert parse_po(text) == {"one": "uno", "c\x04two": "dos", "three\x00threes": "tres\x00treses"}


def test_the_compiled_catalogue_is_the_po_file() -> None:
    """Installing gz-ia compiles it (hatch_build.py); after a .po edit: python hatch_build.py."""
    assert PO.with_suffix(".mo").read_bytes() == mo_bytes(parse_po(PO.read_text("utf-8")))
    assert translations("es").gettext("Usage:") == "Uso:"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
def test_msgfmt_accepts_the_catalogue(tmp_path: Path) -> None:
    checked = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "es.mo"), str(PO)],
                             capture_output=True, text=True, check=False)
    assert (checked.returncode, checked.stderr) == (0, "")


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "es_AR.UTF-8"}, "es"),
    ({"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "es_AR.UTF-8"}, "en"),
    ({"GZ_LANG": "es", "LC_ALL": "en_GB.UTF-8"}, "es"),
    ({"GZ_LANG": "en", "LANG": "es_ES.UTF-8"}, "en"),
    ({"GZ_LANG": "", "LANG": "es_MX"}, "es"),
    ({"LANG": "C.UTF-8"}, "en"),
])
def test_language_detection_order(environ: dict[str, str], expected: str) -> None:
    assert detect_language(environ) == expected


def test_spanish_catalogue_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    gzia.i18n.set_language(None)
    assert gettext("unknown command: {command}", command="x") == "comando desconocido: x"
    assert pgettext("tui.key_prune", "Prune") == "Limpiar"
    gzia.i18n.set_language("en")
    assert gettext("unknown command: {command}", command="x") == "unknown command: x"
    assert pgettext("tui.key_prune", "Prune") == "Prune"


USTED_IMPERATIVES = re.compile(
    r"\b(ejecute|vuelva|instale|defina|corrija|elimine|reintente|espere|use|vea|haga|revise|"
    r"quiso|resuelva|quítelos|muévalos|deténgala|detenga|elija|termínelo|abórtelo|verifique|"
    r"configure|intente|compruebe)\b", re.IGNORECASE)


def test_spanish_speaks_tu_like_the_original() -> None:
    """The original says 'Verifica', 'Ejecuta', 'Puedes'; only the seed's own prompt
    '[?] Describa la tarea para el agente:' is kept as it is."""
    usted = {msgid: text for msgid, text in catalogue().items()
             if USTED_IMPERATIVES.search(text)}
    assert usted == {}


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 plugins loaded", "1 plugin loaded", "2 plugins loaded"]),
    ("es", ["0 plugins cargados", "1 plugin cargado", "2 plugins cargados"]),
])
def test_a_count_of_one_takes_the_singular_form(lang: str, expected: list[str]) -> None:
    gzia.i18n.set_language(lang)
    try:
        assert [ngettext("1 plugin loaded", "{count} plugins loaded", n)
                for n in (0, 1, 2)] == expected
    finally:
        gzia.i18n.set_language(None)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 plugins loaded", "1 plugin loaded", "Prune"]),
    ("es", ["0 plugins cargados", "1 plugin cargado", "Limpiar"]),
])
def test_a_message_marked_for_later_keeps_its_count_and_context(
        lang: str, expected: list[str]) -> None:
    counted = NN_("1 plugin loaded", "{count} plugins loaded")
    gzia.i18n.set_language(lang)
    try:
        assert [gettext(counted, count=0), gettext(counted, count=1),
                gettext(NC_("tui.key_prune", "Prune"))] == expected
    finally:
        gzia.i18n.set_language(None)


def sources() -> list[Path]:
    root = Path(gzia.__file__).parent
    return [path for path in sorted(root.rglob("*.py")) if path.parent != root / "i18n"]


def marked_messages() -> set[str]:
    """The texts of every gettext/ngettext/pgettext/N_/NC_ call in gzia/ whose
    arguments are written out (a context joined to its text as in the catalogue)."""
    found = set()
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = _called(node)
            if name not in MARKERS:
                continue
            texts = [a.value for a in node.args[:MARKERS[name]]  # type: ignore[attr-defined]
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if len(texts) < MARKERS[name]:
                continue
            if name in CONTEXT_MARKERS:
                texts = [texts[0] + CONTEXT + texts[1]]
            found.update(texts)
    return found


def _called(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else None


def literals_in_code() -> set[str]:
    """Every string literal in gzia/ outside the message tables, and each context joined
    to the next literal (``NC_("ctx", "text")``)."""
    found = set()
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
            if _called(node) in CONTEXT_MARKERS and len(node.args) >= 2:  # type: ignore[attr-defined]
                parts = node.args[:2]  # type: ignore[attr-defined]
                if all(isinstance(p, ast.Constant) for p in parts):
                    found.add(parts[0].value + CONTEXT + parts[1].value)
    return found


def test_every_message_of_the_code_is_in_the_catalogue() -> None:
    assert marked_messages() - catalogue_msgids() == set()


def test_every_message_in_the_catalogue_is_used() -> None:
    used = literals_in_code()
    assert catalogue_msgids() - used == set()


def test_every_settings_help_has_its_spanish() -> None:
    """A setting's help is shown to people (TAB completion describes each setting name)."""
    from gzia.settings import SETTINGS

    spanish = translations("es")
    assert [s.key for s in SETTINGS if spanish.gettext(s.help) == s.help] == []
