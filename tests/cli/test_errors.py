"""``gz-ia errors``: the reference is the classifier's own table, in both languages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gzia.contract import EXIT_CODES, RETRYABLE, ErrorCode, WarningCode, classify
from tests.conftest import Result

Cli = Callable[..., Result]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_errors_json_equals_the_classifier_table(cli: Cli, lang: str) -> None:
    from gzia.i18n import set_language, t

    set_language(lang)
    try:
        summaries = {f"error_{c.value}": t(f"errors.error_{c.value}") for c in ErrorCode} | {
            f"warning_{c.value}": t(f"errors.warning_{c.value}") for c in WarningCode}
    finally:
        set_language(None)
    result = cli("errors", "--json", env={"GZ_LANG": lang})
    assert result.exit_code == 0
    assert result.json == {"ok": True, "errors": [], "warnings": [], "data": {
        "errors": [{"code": code.value, "exit_code": int(EXIT_CODES[code]),
                    "retryable": code in RETRYABLE,
                    "summary": summaries[f"error_{code.value}"]} for code in ErrorCode],
        "warnings": [{"code": code.value, "summary": summaries[f"warning_{code.value}"]}
                     for code in WarningCode],
    }}


def test_every_error_class_exits_as_the_reference_says() -> None:
    from gzia import contract

    classes = [c for c in vars(contract).values()
               if isinstance(c, type) and issubclass(c, contract.GzError)]
    codes = {c.code for c in classes}
    assert codes == set(ErrorCode)
    for error_class in classes:
        assert classify(error_class("core.interrupted")) == (EXIT_CODES[error_class.code],
                                                               error_class.code)


def test_new_codes_of_scriptable_sessions() -> None:
    assert (EXIT_CODES[ErrorCode.IDEMPOTENCY_CONFLICT], ErrorCode.IDEMPOTENCY_CONFLICT
            in RETRYABLE) == (1, False)
    assert (EXIT_CODES[ErrorCode.TIMEOUT], ErrorCode.TIMEOUT in RETRYABLE) == (1, True)
    assert {"IDEMPOTENCY_METADATA_DIFFERS", "TAG_FILTER_SCAN_CAPPED", "KILL_ASYNC",
            "NO_OUTPUT_YET"} <= {code.value for code in WarningCode}


def test_errors_human_table_in_spanish(cli: Cli) -> None:
    result = cli("errors", env={"GZ_LANG": "es"})
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and result.stderr == ""
    assert lines[0].split() == ["CÓDIGO", "SALIDA", "REINTENTABLE", "RESUMEN"]
    assert lines[lines.index("") + 1] == "Códigos de aviso (nunca cambian el código de salida):"
    assert f"{'TIMEOUT':<22}{'1':<8}{'sí':<14}una operación superó su plazo" in result.stdout
    assert len(lines) == 1 + len(ErrorCode) + 2 + len(WarningCode)


def test_errors_markdown_is_the_english_page(cli: Cli) -> None:
    from gzia.cli.errors import reference_markdown

    result = cli("errors", "--markdown", env={"GZ_LANG": "es"})
    assert result == Result(0, reference_markdown(), "")
