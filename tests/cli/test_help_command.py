"""``gz-ia help [COMMAND]...``, ``-V``, and "did you mean" for every typo, in both languages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gzia._version import COMMIT, DATE, __version__
from tests.conftest import Result

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}


@pytest.mark.parametrize("env", [{}, ES])
@pytest.mark.parametrize("path", [
    [], ["session"], ["session", "list"], ["config", "set"], ["toolkit"], ["help"],
])
def test_help_shows_the_page_of_command_help(cli: Cli, env: dict[str, str],
                                             path: list[str]) -> None:
    page = cli(*path, "--help", env=env)
    assert page.exit_code == 0 and page.stdout.startswith(("Usage: gz-ia", "Uso: gz-ia"))
    assert cli("help", *path, env=env) == page
    assert cli("help", *path, "--json", env=env).json == cli(*path, "--help", "--json",
                                                              env=env).json


@pytest.mark.parametrize(("env", "stderr"), [
    ({}, "Error: unknown command: lsit\ndid you mean: list, submit?\n"),
    (ES, "Error: comando desconocido: lsit\n¿quisiste decir: list, submit?\n"),
])
def test_help_of_an_unknown_command_is_unknown_command(cli: Cli, env: dict[str, str],
                                                       stderr: str) -> None:
    assert cli("help", "session", "lsit", env=env) == Result(2, "", stderr)
    error = cli("help", "sesion", "--json").json["errors"][0]
    assert (error["code"], error["details"]) == (
        "UNKNOWN_COMMAND", {"command": "sesion", "suggestions": ["session", "version"]})


@pytest.mark.parametrize("args", [["-V"], ["-V", "--json"], ["--json", "-V"]])
def test_dash_capital_v_is_version(cli: Cli, args: list[str]) -> None:
    assert cli(*args) == cli(*[a.replace("-V", "--version") for a in args])
    if args == ["-V"]:
        assert cli(*args).stdout == f"gz-ia v{__version__} (commit: {COMMIT}, date: {DATE})\n"


@pytest.mark.parametrize(("env", "args", "stderr"), [
    ({}, ["session", "list", "--jsn"],
     "Error: unknown flag: --jsn\ndid you mean: --json, --since?\n"),
    (ES, ["session", "list", "--jsn"],
     "Error: unknown flag: --jsn\n¿quisiste decir: --json, --since?\n"),
    ({}, ["--quite", "version"], "Error: unknown flag: --quite\ndid you mean: --quiet?\n"),
    (ES, ["exec", "--providr", "x"],
     "Error: unknown flag: --providr\n¿quisiste decir: --profile, --provider?\n"),
    ({}, ["update", "--dry-rn"], "Error: unknown flag: --dry-rn\ndid you mean: --dry-run?\n"),
    ({}, ["session", "--dri", "x", "list"], "Error: unknown flag: --dri\ndid you mean: --dir?\n"),
    # config set takes a VALUE that may start with -: a typo is still a flag's, not a KEY
    ({}, ["config", "set", "--jsn", "editor", "vim"],
     "Error: unknown flag: --jsn\ndid you mean: --json?\n"),
    (ES, ["config", "set", "editor", "vim", "--jsn"],
     "Error: unknown flag: --jsn\n¿quisiste decir: --json?\n"),
])
def test_a_flag_typo_suggests_in_human_mode_too(cli: Cli, env: dict[str, str],
                                                args: list[str], stderr: str) -> None:
    assert cli(*args, env=env) == Result(2, "", stderr)
    hint = cli("--json", *args, env=env).json["errors"][0]["hint"]
    assert hint == stderr.splitlines()[1]
