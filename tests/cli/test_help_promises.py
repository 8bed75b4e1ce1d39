"""What a command's help says it prints, it prints, and what it prints, its help says:
the listings whose summary names their columns, compared with their output."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from gzia.config import paths
from tests.conftest import Result

Cli = Callable[..., Result]


def promised(summary: str) -> set[str]:
    """The items a summary lists after its colon: ``List x: a, b and c.`` → {a, b, c}."""
    listed = summary.split(": ", 1)[1].rstrip(".")
    return {item.strip() for item in re.split(r", | and ", listed)}


DRIVERS_COLUMNS = {"status": "STATUS", "state (hooks or detector)": "STATE",
                   "version": "VERSION", "MCP support": "MCP", "path": "PATH"}


def test_drivers_shows_each_column_its_help_promises_and_no_other(cli: Cli) -> None:
    page = cli("drivers", "--help", env={"COLUMNS": "200"}).stdout
    summary = page.split("\n\n")[1].strip()
    listing = cli("drivers", env={"PATH": "/nonexistent"}).stdout
    header = listing.splitlines()[0].split()
    assert promised(summary) == {*DRIVERS_COLUMNS, "install hint"}
    assert header == ["ID", "NAME", *DRIVERS_COLUMNS.values()]  # both directions
    assert "\nTo install the missing agents:\n" in listing and "\n  claude: npm " in listing


@pytest.mark.parametrize("env", [{}, {"GZ_LANG": "es"}])
def test_config_path_prints_what_its_help_says(cli: Cli, env: dict[str, str]) -> None:
    page = cli("config", "path", "--help", env={**env, "COLUMNS": "200"}).stdout
    summary = page.split("\n\n")[1].strip()
    assert summary in ("Print the configuration file's path (--json: gz-ia's directories too).",
                       "Muestra la ruta del archivo de configuración (--json: también los "
                       "directorios de gz-ia).")
    assert cli("config", "path", env=env) == Result(0, f"{paths().config_file}\n", "")
    data = cli("config", "path", "--json", env=env).json["data"]
    assert {"config_dir", "data_dir", "cache_dir", "state_dir", "plugin_dirs"} < set(data)
