"""Every number an option takes is checked in one place (gzia/cli/numbers.py): ``nan``,
``inf`` and negative durations are ``INVALID_INPUT`` (exit 2) naming option and value, in
English and Spanish, and nothing starts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.shared_fixtures import lang, repo

__all__ = ["lang", "repo"]  # fixtures

Cli = Callable[..., Result]

POSITIVE = {"en": "invalid {option} {value}: expected more than 0 seconds",
            "es": "{option} {value} no válido: se esperaban más de 0 segundos"}
NOT_NEGATIVE = {"en": "invalid {option} {value}: expected 0 or more seconds",
                "es": "{option} {value} no válido: se esperaban 0 o más segundos"}
COUNT = {"en": "invalid {option} {value}: expected {minimum} or more",
         "es": "{option} {value} no válido: se esperaba {minimum} o más"}

RUN_DURATIONS = [(command, option) for command in (("exec",), ("chat",), ("resume",))
                 for option in ("--timeout", "--no-output-timeout")]
BAD_SECONDS = [("nan", "nan"), ("NaN", "nan"), ("inf", "inf"), ("-inf", "-inf"),
               ("1e999", "inf"), ("-1", "-1.0"), ("-0.5", "-0.5"), ("abc", "abc"), ("", "")]


def _expect(result: Result, message: str, option: str, shown: str) -> None:
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "INVALID_INPUT", "message": message, "retryable": False, "hint": None,
        "details": {"option": option, "value": shown}}]}


@pytest.mark.parametrize("where", RUN_DURATIONS)
@pytest.mark.parametrize("value", [*BAD_SECONDS, ("0", "0.0"), ("-0", "-0.0")])
def test_a_run_duration_must_be_a_finite_number_above_zero(
        cli: Cli, repo: Path, lang: str, where: tuple[tuple[str, ...], str],
        value: tuple[str, str]) -> None:
    (command, option), (typed, shown) = where, value
    message = POSITIVE[lang].format(option=option, value=shown)
    human = cli(*command, option, typed, "--", "true", cwd=repo)
    assert human == Result(2, "", f"Error: {message}\n")
    _expect(cli(*command, option, typed, "--json", "--", "true", cwd=repo), message, option,
            shown)
    assert not (repo / ".harness" / "sessions").exists()  # nothing started


@pytest.mark.parametrize(("typed", "shown"), BAD_SECONDS)
def test_session_wait_refuses_what_is_no_duration(
        cli: Cli, repo: Path, lang: str, typed: str, shown: str) -> None:
    wait = NOT_NEGATIVE[lang].format(option="--timeout", value=shown)
    assert cli("session", "wait", "--timeout", typed, "0000abcd", cwd=repo) == Result(
        2, "", f"Error: {wait}\n")
    _expect(cli("--json", "session", "wait", "--timeout", typed, "0000abcd", cwd=repo), wait,
            "--timeout", shown)


@pytest.mark.parametrize("case", [
    (("session", "list", "--limit"), "--limit", "0", 1),
    (("session", "list", "--limit"), "--limit", "x", 1),
    (("session", "output", "0000abcd", "--tail"), "--tail", "-1", 0),
    (("session", "output", "0000abcd", "--tail"), "--tail", "1.5", 0),
])
def test_counts_use_the_same_check(cli: Cli, repo: Path, lang: str,
                                   case: tuple[tuple[str, ...], str, str, int]) -> None:
    args, option, typed, minimum = case
    message = COUNT[lang].format(option=option, value=typed, minimum=minimum)
    assert cli(*args, typed, cwd=repo) == Result(2, "", f"Error: {message}\n")
    _expect(cli(*args, typed, "--json", cwd=repo), message, option, typed)


def test_valid_durations_still_work(cli: Cli, repo: Path) -> None:
    done = cli("--json", "exec", "--timeout", "30", "--no-output-timeout", "1e9", "--", "true",
               cwd=repo)
    assert (done.exit_code, done.json["data"]["status"]) == (0, "completed")
    stopped = cli("--json", "exec", "--timeout", "0.3", "--", "sleep", "30", cwd=repo)
    assert stopped.json["data"]["end_reason"] == "timeout"
    assert cli("session", "wait", "--timeout", "0", done.json["data"]["id"],
               cwd=repo).exit_code == 0


CONFIG = {"en": "setting '{key}'{origin} must be {expected}, got '{value}'",
          "es": "el ajuste '{key}'{origin} debe ser {expected}, se recibió '{value}'"}
EXPECTED = {("en", "kill_grace_ms"): "an integer of at least 0",
            ("es", "kill_grace_ms"): "un número entero no menor que 0",
            ("en", "update_timeout"): "a number greater than 0",
            ("es", "update_timeout"): "un número mayor que 0"}
ORIGIN = {"en": " from {source}", "es": " de {source}"}
READER = {"kill_grace_ms": ("exec", "--", "true"), "update_timeout": ("config", "get",
                                                                     "update_timeout")}


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1"])
@pytest.mark.parametrize("key", ["kill_grace_ms", "update_timeout"])
def test_duration_settings_refuse_the_same_values_wherever_they_are_set(
        cli: Cli, repo: Path, lang: str, key: str, value: str) -> None:
    """A setting is checked where it is set: ``config set``, the file, the variable."""
    def message(source: str | None) -> str:
        origin = "" if source is None else ORIGIN[lang].format(source=source)
        return "Error: " + CONFIG[lang].format(key=key, origin=origin,
                                               expected=EXPECTED[lang, key], value=value) + "\n"

    assert cli("config", "set", key, value) == Result(2, "", message(None))
    variable = "GZ_" + key.upper()
    assert cli(*READER[key], cwd=repo, env={variable: value}) == Result(
        2, "", message(variable))
    file = repo.parent / "config.toml"
    file.write_text(f"{key} = {value}\n")  # TOML has nan and inf
    assert cli(*READER[key], cwd=repo, env={"GZ_CONFIG_FILE": str(file)}) == Result(
        2, "", message(str(file)))
    assert not (repo / ".harness" / "sessions").exists()
