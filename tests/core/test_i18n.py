"""The Spanish catalogue says what the code says, and the language follows the environment.

The catalogue is gzia/locale/es/LC_MESSAGES/gzia.po: msgid is the English text written in
the code, msgstr its Spanish. In the code, a message is the text of a ``gettext``,
``ngettext``, ``pgettext``, ``N_`` or ``NC_`` call (the msgids), or a help text or
placeholder click shows (tests/cli/test_help.py walks those).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

import gzia
import gzia.i18n
from gzia.contract import ErrorCode, WarningCode
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
    used = literals_in_code() | transition_messages()
    assert catalogue_msgids() - used == set()


# --- transition: key-based messages (removed by the call-site conversion)
# Message keys in gzia/ written as an f-string (or ``"area.prefix_" + name``), with every
# key each one can produce. A new dynamic key must be added here with its expansions, so
# the two checks below still see every key the code can ask for.
METRICS_LABELS = {
    f"metrics.label_{k}" for k in ("changes", "cost", "duration", "exit_code", "models",
                                   "requests", "source", "status", "subagents", "tokens",
                                   "tools", "totals")}
DYNAMIC_KEYS: dict[str, set[str]] = {
    "f'config.expected_{setting.type.__name__}'": {
        "config.expected_bool", "config.expected_float", "config.expected_int",
        "config.expected_str"},
    "f'config.expected_{setting.type.__name__}_min'": {"config.expected_int_min"},
    "f'config.expected_{setting.type.__name__}_positive'": {"config.expected_float_positive"},
    "f'drivers.status_{k}'": {"drivers.status_available", "drivers.status_missing"},
    "f'metrics.col_{c}'": {
        f"metrics.col_{c}" for c in ("cache_read", "cache_write", "cost", "duration", "id",
                                     "input", "key", "output", "provider", "requests",
                                     "sessions", "status", "tools")},
    "f'metrics.label_{key}'": METRICS_LABELS,
    "'metrics.label_' + key": METRICS_LABELS,
    "f'metrics.warn_{notice.reason}'": {
        f"metrics.warn_{r}" for r in ("diff_unavailable", "missing", "no_conversation",
                                      "partial", "unknown_format", "unreadable",
                                      "unreadable_lines", "not_regular", "line_too_long",
                                      "too_complex", "bad_values", "too_large")},
    # gz-ia errors: one summary for every error and warning code of the contract
    "f'errors.error_{code.value}'": {f"errors.error_{code.value}" for code in ErrorCode},
    "f'errors.warning_{code.value}'": {f"errors.warning_{code.value}" for code in WarningCode},
    "f'profiles.column_{c}'": {
        f"profiles.column_{c}" for c in ("agents_file", "category", "description", "name",
                                         "scope", "skill", "skills")},
    "f'profiles.scope_{scope}'": {"profiles.scope_global", "profiles.scope_project"},
    "f'profiles.{what}_collision'": {
        "profiles.server_collision", "profiles.variable_collision"},
    "f'run.kill_why_{target.reason}'": {
        f"run.kill_why_{r}" for r in ("caller_group", "not_group_leader", "pgid_mismatch",
                                      "unsafe_group")},
    "f\"run.event_{('resumed' if resume else 'started')}\"": {
        "run.event_resumed", "run.event_started"},
    "f'run.{record.end_reason}'": {"run.timeout", "run.no_output_timeout"},  # the timeouts
    "f\"run.event_finished_{('failed' if failed else 'ok')}\"": {
        "run.event_finished_failed", "run.event_finished_ok"},
    "f'sessions.col_{c}'": {
        f"sessions.col_{c}" for c in ("duration", "id", "mode", "permission", "pid",
                                      "started", "status")},
    "'sessions.label_' + key": {
        f"sessions.label_{k}" for k in ("base", "branch", "dir", "end_reason", "exit_code",
                                        "finished", "labels", "merged", "mode", "permission",
                                        "pid", "prompt", "provider", "started", "status")},
    "f'sessions.{key}'": {  # merge notes; prune's listed files and removed names
        "sessions.merge_note_no_commit", "sessions.merge_note_squash_no_commit",
        "sessions.prune_discarded", "sessions.prune_discarded_dry", "sessions.prune_kept_files",
        "sessions.prune_dir", "sessions.prune_dir_dry", "sessions.prune_events",
        "sessions.prune_events_dry", "sessions.prune_lock", "sessions.prune_lock_dry",
        "sessions.prune_missing"},
    "f'sessions.prune_worktree{would}'": {
        "sessions.prune_worktree", "sessions.prune_worktree_dry"},
    "f'sessions.prune_session{would}'": {
        "sessions.prune_session", "sessions.prune_session_dry"},
    "f'sessions.prune_session_branch{would}'": {
        "sessions.prune_session_branch", "sessions.prune_session_branch_dry"},
    "f'sessions.prune_discarded_commits{would}'": {
        "sessions.prune_discarded_commits", "sessions.prune_discarded_commits_dry"},
    "f'sessions.prune_branch{would}'": {"sessions.prune_branch", "sessions.prune_branch_dry"},
    "f'sessions.prune_kept_{kept.reason}'": {
        f"sessions.prune_kept_{r}" for r in ("locked", "symlink", "uncommitted",
                                             "unmerged_head", "unreadable", "young")},
    "f'sessions.prune_kept_branch_{branch.reason}'": {
        "sessions.prune_kept_branch_checked_out"},
    "f'sessions.prune_session_kept_{kept.reason}'": {
        "sessions.prune_session_kept_running", "sessions.prune_session_kept_unmerged"},
    "f'{key}_hint'": {  # the hint beside an error raised with a key held in a variable
        "sessions.bare_repository_hint", "sessions.git_dir_without_work_tree_hint",
        "sessions.merge_hook_refused_merge_hint", "sessions.merge_hook_refused_safety_hint"},
}
NOT_KEYS = {"config.toml"}  # string literals in gzia/ that look like keys and are file names


def message_areas() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(gzia.i18n.__path__))


def catalogue_keys() -> set[str]:
    return {f"{area}.{name}" for area in message_areas()
            for name in importlib.import_module(f"gzia.i18n.{area}").EN}


def keys_in_code() -> tuple[set[str], set[str]]:
    """The literal keys in gzia/ (outside the catalogues), and the source of every key
    built from parts: an f-string or a ``"area.prefix_" + name`` made of key characters."""
    key = re.compile(rf"({'|'.join(message_areas())})\.[a-z0-9_]+")
    literal, dynamic = set(), set()
    root = Path(gzia.__file__).parent
    for path in sorted(root.rglob("*.py")):
        if path.parent == root / "i18n":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parts_of_dynamic = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr | ast.BinOp) and _builds_a_key(node, key):
                dynamic.add(ast.unparse(node))
                parts_of_dynamic.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and key.fullmatch(node.value) and id(node) not in parts_of_dynamic:
                literal.add(node.value)
    return literal - NOT_KEYS, dynamic


def _builds_a_key(node: ast.JoinedStr | ast.BinOp, key: re.Pattern[str]) -> bool:
    if isinstance(node, ast.BinOp):
        left = node.left
        return isinstance(node.op, ast.Add) and isinstance(left, ast.Constant) \
            and isinstance(left.value, str) and key.fullmatch(left.value) is not None
    texts = [v.value for v in node.values if isinstance(v, ast.Constant)]
    return bool(texts) and all(re.fullmatch(r"[a-z0-9_.]+", s) for s in texts) and (
        key.match(texts[0] + "x") is not None or texts[-1] == "_hint")




def test_every_message_key_used_in_the_code_exists() -> None:
    literal, dynamic = keys_in_code()
    assert dynamic == set(DYNAMIC_KEYS)  # a new key built from parts: list its expansions
    expansions = set().union(*DYNAMIC_KEYS.values())
    assert (literal | expansions) - catalogue_keys() == set()


def test_every_key_in_the_tables_is_used() -> None:
    literal, _ = keys_in_code()
    used = literal | set().union(*DYNAMIC_KEYS.values())
    plural = {f"{k}_one" for k in used}  # the singular form t() picks for a count of 1
    assert catalogue_keys() - used - plural == set()


def test_every_key_has_its_message_in_the_catalogue() -> None:
    english = {text for area in message_areas()
               for text in importlib.import_module(f"gzia.i18n.{area}").EN.values()}
    assert english - catalogue_msgids() == set()


def transition_messages() -> set[str]:
    """The English texts the code asks for by key."""
    literal, _ = keys_in_code()
    used = literal | set().union(*DYNAMIC_KEYS.values())
    used |= {f"{k}_one" for k in used}
    tables = {area: importlib.import_module(f"gzia.i18n.{area}").EN for area in message_areas()}
    return {tables[key.partition(".")[0]][key.partition(".")[2]] for key in used
            if key.partition(".")[2] in tables[key.partition(".")[0]]}
# --- end transition
