"""The exit-code and JSON-envelope contract of the CLI core, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia._version import COMMIT, DATE, __version__
from tests.conftest import Result

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
VERSION_LINE = f"gz-ia v{__version__} (commit: {COMMIT}, date: {DATE})\n"


def error_envelope(code: str, message: str, hint: str | None = None,
                   details: dict[str, object] | None = None) -> dict[str, object]:
    return {"ok": False, "data": None, "errors": [{
        "code": code, "message": message, "retryable": False, "hint": hint,
        "details": details or {}}], "warnings": []}


@pytest.mark.parametrize("args", [["--version"], ["version"]])
def test_version_line(cli: Cli, args: list[str]) -> None:
    assert cli(*args) == Result(0, VERSION_LINE, "")


def test_version_json(cli: Cli) -> None:
    result = cli("version", "--json")
    assert result.exit_code == 0
    data = result.json["data"]
    assert result.json == {"ok": True, "data": {
        "version": __version__, "commit": COMMIT, "date": DATE, "python": data["python"]},
        "errors": [], "warnings": []}
    assert cli("--json", "--version").json == result.json


@pytest.mark.parametrize("env", [{}, ES])
def test_unknown_flag_is_one_line_and_exit_2(cli: Cli, env: dict[str, str]) -> None:
    result = cli("config", "list", "--invalid-flag", env=env)
    assert result == Result(2, "", "Error: unknown flag: --invalid-flag\n")


def test_unknown_flag_on_the_root(cli: Cli) -> None:
    assert cli("--invalid-flag") == Result(2, "", "Error: unknown flag: --invalid-flag\n")


@pytest.mark.parametrize("args", [
    ["--json", "config", "list", "--invalid-flag"],
    ["config", "list", "--invalid-flag", "--json"],
    ["config", "list", "--json", "--invalid-flag"],
    ["--json", "--invalid-flag"],
])
def test_unknown_flag_json(cli: Cli, args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stderr == ""
    assert result.json == error_envelope(
        "UNKNOWN_FLAG", "unknown flag: --invalid-flag", details={"flag": "--invalid-flag"})


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: unknown command: nope\n"),
    (ES, "Error: comando desconocido: nope\n"),
])
def test_unknown_command(cli: Cli, env: dict[str, str], stderr: str) -> None:
    assert cli("nope", env=env) == Result(2, "", stderr)


def test_unknown_command_suggests_in_json(cli: Cli) -> None:
    assert cli("--json", "confg").json == error_envelope(
        "UNKNOWN_COMMAND", "unknown command: confg", "did you mean: config?",
        {"command": "confg", "suggestions": ["config"]})


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: missing argument: KEY\n"),
    (ES, "Error: falta el argumento: KEY\n"),
])
def test_missing_argument(cli: Cli, env: dict[str, str], stderr: str) -> None:
    assert cli("config", "get", env=env) == Result(2, "", stderr)
    result = cli("config", "get", "--json", env=env)
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "MISSING_REQUIRED"


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: missing command for 'gz-ia config'\nrun 'gz-ia config --help' for usage\n"),
    (ES, "Error: falta el subcomando de 'gz-ia config'\n"
         "ejecuta 'gz-ia config --help' para ver el uso\n"),
])
def test_missing_subcommand(cli: Cli, env: dict[str, str], stderr: str) -> None:
    assert cli("config", env=env) == Result(2, "", stderr)


def test_flag_given_a_value_is_invalid_input(cli: Cli) -> None:
    result = cli("config", "list", "--reveal=yes", "--json")
    assert result.exit_code == 2
    assert result.json["errors"][0]["code"] == "INVALID_INPUT"


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: setting 'kill_grace_ms' must be an integer of at least 0, got 'soon'\n"),
    (ES, "Error: el ajuste 'kill_grace_ms' debe ser un número entero no menor que 0, "
         "se recibió 'soon'\n"),
])
def test_invalid_value_from_domain_code(cli: Cli, env: dict[str, str], stderr: str) -> None:
    assert cli("config", "set", "kill_grace_ms", "soon", env=env) == Result(2, "", stderr)


def test_no_arguments_prints_help(cli: Cli) -> None:
    result = cli()
    assert result.exit_code == 0
    assert "Usage: gz-ia" in result.stdout
    for name in ("config", "doctor", "plugins", "version"):
        assert f"  {name} " in result.stdout


@pytest.mark.parametrize("env", [{}, ES])
@pytest.mark.parametrize("flags", [["-q"], ["--quiet"], ["--debug"], ["-q", "--debug"]])
def test_global_flags_alone_print_the_help_like_no_arguments(
    cli: Cli, env: dict[str, str], flags: list[str]
) -> None:
    bare = cli(env=env)
    assert bare.exit_code == 0 and bare.stdout.startswith(("Usage: gz-ia", "Uso: gz-ia"))
    assert cli(*flags, env=env) == bare


@pytest.mark.parametrize("env", [{}, ES])
@pytest.mark.parametrize("flags", [["--json"], ["--json", "-q"], ["--debug", "--json"]])
def test_json_alone_is_the_help_as_data_help(
    cli: Cli, env: dict[str, str], flags: list[str]
) -> None:
    result = cli(*flags, env=env)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.json == {"ok": True, "data": {"help": cli(env=env).stdout.rstrip("\n")},
                           "errors": [], "warnings": []}


def test_quiet_suppresses_output_but_not_errors(cli: Cli) -> None:
    assert cli("-q", "config", "path") == Result(0, "", "")
    assert cli("config", "get", "nope", "-q").stderr.startswith("Error: unknown setting 'nope'")


def test_unknown_subcommand_is_unknown_command(cli: Cli) -> None:
    assert cli("config", "lsit") == Result(
        2, "", "Error: unknown command: lsit\ndid you mean: list?\n")
    envelope = cli("config", "lsit", "--json").json
    assert envelope["errors"][0]["code"] == "UNKNOWN_COMMAND"


@pytest.mark.parametrize("args", [
    ["--json", "--help"], ["--help", "--json"], ["-h", "--json"],
    ["--json", "session", "--help"], ["session", "--help", "--json"],
    ["config", "list", "--help", "--json"], ["--json", "config", "list", "-h"],
])
def test_help_in_json_mode_is_one_envelope(cli: Cli, args: list[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 0
    assert result.stderr == ""
    envelope = result.json
    assert envelope["ok"] is True and envelope["errors"] == []
    assert envelope["data"]["help"].startswith("Usage: gz-ia")


def test_help_is_plain_text_like_the_root(cli: Cli) -> None:
    result = cli("session", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: gz-ia session [OPTIONS] COMMAND [ARGS]...\n")
    assert "╭" not in result.stdout


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: missing command for 'gz-ia session'\nrun 'gz-ia session --help' for usage\n"),
    (ES, "Error: falta el subcomando de 'gz-ia session'\n"
         "ejecuta 'gz-ia session --help' para ver el uso\n"),
])
def test_group_without_subcommand_prints_no_usage_dump(
    cli: Cli, env: dict[str, str], stderr: str
) -> None:
    assert cli("session", env=env) == Result(2, "", stderr)
    envelope = cli("--json", "session", env=env).json
    assert envelope["errors"][0]["code"] == "MISSING_REQUIRED"


def test_version_flag_then_json(cli: Cli) -> None:
    assert cli("--version", "--json").json == cli("version", "--json").json


@pytest.mark.parametrize(("env", "message"), [
    ({}, "unexpected argument: extra"),
    (ES, "argumento inesperado: extra"),
])
def test_extra_argument_is_one_translated_line(
    cli: Cli, env: dict[str, str], message: str
) -> None:
    assert cli("version", "extra", env=env) == Result(2, "", f"Error: {message}\n")
    assert cli("config", "path", "a", "b", "--json", env=env).json == error_envelope(
        "INVALID_INPUT", message.replace("extra", "a b"), details={"arguments": ["a", "b"]})


@pytest.mark.parametrize(("env", "message"), [
    ({}, "flag --dir needs a value"),
    (ES, "la bandera --dir necesita un valor"),
])
def test_option_without_its_value(cli: Cli, env: dict[str, str], message: str) -> None:
    assert cli("session", "list", "--dir", env=env) == Result(2, "", f"Error: {message}\n")
    assert cli("--json", "session", "list", "--dir", env=env).json == error_envelope(
        "MISSING_REQUIRED", message, details={"flag": "--dir"})


@pytest.mark.parametrize(("env", "message"), [
    ({}, "flag --reveal takes no value"),
    (ES, "la bandera --reveal no admite valor"),
])
def test_flag_given_a_value_message(cli: Cli, env: dict[str, str], message: str) -> None:
    assert cli("config", "list", "--reveal=yes", env=env) == Result(2, "", f"Error: {message}\n")
    assert cli("config", "list", "--reveal=yes", "--json", env=env).json == error_envelope(
        "INVALID_INPUT", message, details={"flag": "--reveal"})


class SignalledWhileWriting:
    """A stdout during whose write the SIGTERM (or Ctrl+C) handler fires."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def write(self, text: str) -> int:
        raise self.exc

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(("signalled", "exit_code"), [
    ("TerminationRequested", 143), ("KeyboardInterrupt", 130)])
def test_signal_while_writing_the_outcome_still_exits_with_its_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], signalled: str,
    exit_code: int,
) -> None:
    import sys

    import gzia.contract
    from gzia.cli import main

    exc = getattr(gzia.contract, signalled, None) or KeyboardInterrupt
    monkeypatch.setattr(sys, "stdout", SignalledWhileWriting(exc()))
    assert main(["config", "path", "--json"]) == exit_code
    assert "Traceback" not in capsys.readouterr().err


def test_quiet_silences_warnings_but_json_keeps_them(cli: Cli, tmp_path: Path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    sessions = tmp_path / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "abcdef01.json").write_text("{not json")
    assert cli("session", "list", "-q", cwd=tmp_path) == Result(0, "", "")
    assert cli("session", "list", cwd=tmp_path).stderr.startswith("Warning: ")
    envelope = cli("session", "list", "-q", "--json", cwd=tmp_path).json
    assert [w["code"] for w in envelope["warnings"]] == ["IO"]


def test_sigterm_just_before_the_agent_starts_is_143_with_the_record(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal
    import subprocess

    import gzia.sessions.run.runner as session_runner

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    real = session_runner.log_lifecycle_event
    sent: list[int] = []

    def log_then_signalled(*args: object, **kwargs: object) -> None:
        if not sent:
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)  # gz-ia's own handler turns it into a raise
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(session_runner, "log_lifecycle_event", log_then_signalled)
    result = cli("--json", "exec", "--", "true", cwd=tmp_path)
    assert result.exit_code == 143
    assert [e["code"] for e in result.json["errors"]] == ["TERMINATED"]
    assert (result.json["data"]["status"], result.json["data"]["end_reason"]) == \
        ("killed", "canceled")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**4300],
                         ids=["nan", "infinity", "4301-digits"])
def test_a_value_json_cannot_hold_ends_in_one_valid_document(
        value: object, capsys: pytest.CaptureFixture[str]) -> None:
    """No NaN, no Infinity (RFC 8259 has neither), no integer too long to print: the
    outcome is an internal error, still one valid JSON document."""
    import json

    from gzia.cli import outcome, output

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    out = output.Output()
    out.set_json(True)
    out.emit({"figure": value}, None)
    code = outcome.succeeded(out)
    document = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert (code, document["ok"], document["data"]) == (1, False, None)
    assert [e["code"] for e in document["errors"]] == ["INTERNAL"]
