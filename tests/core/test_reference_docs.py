"""docs/reference cannot drift from the code: the tables are checked against it."""

from __future__ import annotations

from pathlib import Path

from gzia.contract import EXIT_CODES, RETRYABLE, ErrorCode, ExitCode

DOCS = Path(__file__).resolve().parents[2] / "docs" / "reference"


def table_rows(name: str) -> list[list[str]]:
    rows = []
    for line in (DOCS / name).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and not set(cells[0]) <= {"-", "|"} and cells[0] not in (
            "exit", "code"):
            rows.append(cells)
    return rows


def test_exit_codes_table_matches_the_enum() -> None:
    documented = {int(row[0]): row[1] for row in table_rows("exit-codes.md")}
    assert documented == {code.value: code.name for code in ExitCode}


def test_error_codes_table_matches_the_classifier() -> None:
    documented = {row[0]: (int(row[1]), row[2] == "yes") for row in table_rows("error-codes.md")}
    expected = {code.value: (int(EXIT_CODES[code]), code in RETRYABLE) for code in ErrorCode}
    assert documented == expected


def test_error_codes_page_is_the_generated_reference() -> None:
    from gzia.cli.errors import reference_markdown

    assert (DOCS / "error-codes.md").read_text() == reference_markdown()


def test_configuration_table_matches_the_settings() -> None:
    from gzia.settings import SETTINGS

    text = (DOCS.parent / "configuration.md").read_text()
    rows = [line.strip("|").split(" | ") for line in text.splitlines()
            if line.startswith("| ") and line.count(" | ") == 3]
    documented = {r[0].strip(): (r[1].strip(), r[2].strip(), r[3].strip()) for r in rows
                  if r[0].strip() != "key"}
    expected = {s.key: (s.env, "(none)" if s.default is None else str(s.default), s.help)
                for s in SETTINGS}
    assert documented == expected


def test_every_warning_code_is_the_enum() -> None:
    """A warning (``output.warn``, a ``Problem``, a ``Notice``) takes its code as a
    :class:`WarningCode` member, never a string literal: the enum is the table
    ``gz-ia errors`` prints, so no code can be used without being in it."""
    import ast

    literal = []
    for source in (DOCS.parents[1] / "gzia").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            if isinstance(node, ast.Call) and _called(node) in {"warn", "Problem", "Notice"} \
                    and node.args and isinstance(node.args[0], ast.Constant) \
                    and str(node.args[0].value).isupper():  # metrics' notices: reasons
                literal.append(f"{source.name}:{node.lineno}")
    assert literal == []


def _called(call: object) -> str:
    import ast

    func = call.func  # type: ignore[attr-defined]
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_messages_page_is_the_generated_reference() -> None:
    """Every wording in both languages is pinned: change a message, regenerate the page."""
    import runpy

    generator = runpy.run_path(str(DOCS.parents[1] / "build" / "messages_doc.py"))
    assert (DOCS / "messages.md").read_text() == generator["messages_markdown"](), (
        "regenerate: python build/messages_doc.py > docs/reference/messages.md")
