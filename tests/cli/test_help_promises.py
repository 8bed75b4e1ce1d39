"""What a command's help says it prints, it prints, and what it prints, its help says:
the listings whose summary names their columns, compared with their output."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.config import paths
from tests.conftest import Result
from tests.shared_fixtures import repo

__all__ = ["repo"]

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


POLL_FIELDS = {"status": "completed", "exit code": "exit 0", "bytes of output": "0 bytes",
               "seconds since its last output": "idle ", "the state of its holder": "holder "}
"""What each item ``session poll --help`` names looks like in its line."""


def test_session_poll_prints_each_field_its_help_names_and_no_other(cli: Cli,
                                                                    repo: Path) -> None:
    from tests.cli.test_missing_fields import SPARSE

    sessions = repo / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    record = {**SPARSE, "status": "completed", "exit_code": 0}
    (sessions / "0badf00d.json").write_text(json.dumps(record))
    assert items(summary_of(cli, "session", "poll"), "Show a session's ") == set(POLL_FIELDS)
    line = cli("session", "poll", "0bad", "-d", str(repo)).stdout.rstrip("\n")
    shown = line.split("  ")[1:]  # after the id
    assert len(shown) == len(POLL_FIELDS)
    assert all(value.startswith(start)
               for value, start in zip(shown, POLL_FIELDS.values(), strict=True))


def items(summary: str, prefix: str = "") -> set[str]:
    """What a summary lists: ``A, B and C.``, ``A, B: C and D.`` → each item."""
    listed = summary.removeprefix(prefix).rstrip(".")
    return {item for item in re.split(r",\s+(?:and\s+)?|\s+and\s+|:\s+", listed) if item}


def summary_of(cli: Cli, *path: str) -> str:
    page = cli(*path, "--help", env={"COLUMNS": "300"}).stdout
    return page.split("\n\n")[1].strip()


ERRORS_COLUMNS = {"exit code": "EXIT", "retryable": "RETRYABLE", "summary": "SUMMARY"}


def test_errors_shows_each_column_its_help_promises_and_no_other(cli: Cli) -> None:
    summary = summary_of(cli, "errors")
    assert items(summary, "List every error and warning code: ") == set(ERRORS_COLUMNS)
    header = cli("errors").stdout.splitlines()[0].split()
    assert header == ["CODE", *ERRORS_COLUMNS.values()]


METRICS_COLUMNS = {"Duration": ["DURATION"], "token usage": ["INPUT", "OUTPUT", "CACHE R",
                                                             "CACHE W"],
                   "requests": ["REQUESTS"], "tool calls": ["TOOLS"], "cost": ["COST"]}
"""The project's figures ``metrics --help`` names, and the columns that show each."""


def test_metrics_shows_each_figure_its_help_promises_and_no_other(cli: Cli,
                                                                  repo: Path) -> None:
    from tests.cli.test_missing_fields import SPARSE

    sessions = repo / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "0badf00d.json").write_text(json.dumps(SPARSE))
    summary = summary_of(cli, "metrics").removesuffix(" of the project's sessions.")
    assert items(summary) == set(METRICS_COLUMNS)
    header = re.split(r"\s{2,}", cli("metrics", "-d", str(repo)).stdout.splitlines()[0])
    figures = [column for columns in METRICS_COLUMNS.values() for column in columns]
    assert sorted(header) == sorted(["ID", "PROVIDER", "STATUS", *figures])


SESSION_METRICS_ROWS = {"status": "status", "duration": "duration", "exit code": "exit_code",
                        "changes": "changes", "what its agent's transcript recorded": "source",
                        "models": "models", "requests": "requests", "tokens": "tokens",
                        "cost": "cost", "tool calls": "tools"}
"""What ``session metrics --help`` names, and the row (gzia/cli/metrics_views.py) of each."""


def test_session_metrics_shows_each_row_its_help_promises_and_no_other(cli: Cli) -> None:
    from gzia.cli.metrics_views import LABELS

    assert items(summary_of(cli, "session", "metrics"), "Show a session's ") == \
        set(SESSION_METRICS_ROWS)
    with_sub_agents = {"subagents", "totals"}  # the sub-agents' own figures, when there are
    assert set(LABELS) - with_sub_agents == set(SESSION_METRICS_ROWS.values())
