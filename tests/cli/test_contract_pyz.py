"""The same contract through the built zipapp: exit codes and envelopes, both languages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

RunPyz = Callable[..., Result]
pytestmark = pytest.mark.pyz


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["session", "list", "--invalid-flag"], {},
     Result(2, "", "Error: unknown flag: --invalid-flag\n")),
    (["chat", "--invalid-flag"], {"GZ_LANG": "es"},
     Result(2, "", "Error: unknown flag: --invalid-flag\n")),
    (["nope"], {}, Result(2, "", "Error: unknown command: nope\n")),
    (["nope"], {"LANG": "es_ES.UTF-8"}, Result(2, "", "Error: comando desconocido: nope\n")),
    (["config", "get"], {"GZ_LANG": "es"}, Result(2, "", "Error: falta el argumento: KEY\n")),
])
def test_usage_errors(run_pyz: RunPyz, args: list[str], env: dict[str, str],
                      expected: Result) -> None:
    assert run_pyz(*args, env=env) == expected


def test_envelopes(run_pyz: RunPyz, tmp_path: Path) -> None:
    ok = run_pyz("--json", "version")
    assert ok.exit_code == 0
    assert ok.json["ok"] is True and ok.json["errors"] == []
    bad = run_pyz("session", "show", "../../etc", "--json", cwd=tmp_path)
    assert bad.exit_code == 2
    assert bad.json["ok"] is False
    assert bad.json["errors"][0]["code"] == "INVALID_INPUT"
    missing = run_pyz("--json", "session", "show", "abcd1234", env={"GZ_LANG": "es"},
                      cwd=tmp_path)
    assert missing.exit_code == 1
    assert missing.json["errors"][0]["code"] == "NOT_FOUND"
    assert missing.json["errors"][0]["message"] == "sesión 'abcd1234' no encontrada"


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["session"], {"GZ_LANG": "es"}, Result(
        2, "", "Error: falta el subcomando de 'gz-ia session'\n"
               "ejecuta 'gz-ia session --help' para ver el uso\n")),
    (["version", "extra"], {}, Result(2, "", "Error: unexpected argument: extra\n")),
    (["session", "list", "-d"], {"GZ_LANG": "es"},
     Result(2, "", "Error: la bandera -d necesita un valor\n")),
])
def test_usage_errors_are_one_line_without_a_usage_dump(
    run_pyz: RunPyz, args: list[str], env: dict[str, str], expected: Result
) -> None:
    assert run_pyz(*args, env=env) == expected


@pytest.mark.parametrize(("args", "exit_code", "data_key"), [
    (["--json", "session"], 2, None),
    (["session", "--help", "--json"], 0, "help"),
    (["--version", "--json"], 0, "version"),
])
def test_one_envelope_where_help_used_to_leak(
    run_pyz: RunPyz, args: list[str], exit_code: int, data_key: str | None
) -> None:
    result = run_pyz(*args)
    assert (result.exit_code, result.stderr) == (exit_code, "")
    envelope = result.json
    assert envelope["ok"] is (exit_code == 0)
    if data_key is None:
        assert envelope["errors"][0]["code"] == "MISSING_REQUIRED"
    else:
        assert data_key in envelope["data"]
