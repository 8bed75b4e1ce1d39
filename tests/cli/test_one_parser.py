"""One parser reads every command line: global flags anywhere, the subcommand's ``-d``
over its group's, ``gz-ia mcp`` as agents are handed it, bare ``gz-ia``.

Each case runs as a real process (``python -m gzia``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from gzia.cli.global_flags import lenient_parse
from gzia.cli.root import COMPLETE_VAR
from gzia.sessions.project import find_project
from tests.conftest import Result
from tests.sessions.session_testkit import COMPLETED_ISOLATED, go_record, make_repo, make_session

RunPyz = Callable[..., Result]


def gz(*args: str, env: dict[str, str] | None = None, stdin: str = "",
       cwd: Path | None = None) -> Result:
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env={**os.environ, **(env or {})},
                          input=stdin, cwd=cwd, capture_output=True, text=True, timeout=60,
                          check=False)
    return Result(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def listed(tmp_path: Path) -> Path:
    """A project with a record of each kind: gz-ia's, the original's, an unreadable one."""
    root = make_repo(tmp_path / "repo")
    project = find_project(root)
    make_session(project, "abcdef01", initial_prompt="arregla «esto»")
    make_session(project, "12345678", status="failed", exit_code=3,
                 started_at="2026-03-02T08:30:00Z")
    (project.sessions_dir / "3f9a1c7e.json").write_text(go_record(COMPLETED_ISOLATED, root))
    (project.sessions_dir / "ffffffff.json").write_text("{oops")
    return root


@pytest.fixture
def squatter(tmp_path: Path) -> dict[str, str]:
    """A plugins directory whose plugin claims the built-in name ``session``: a warning."""
    dist_info = tmp_path / "plugins" / "gzia_squatter-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "entry_points.txt").write_text("[gzia.commands]\nsession = squatter:app\n")
    return {"GZ_PLUGIN_PATH": str(tmp_path / "plugins")}


FORMS = [
    ["session", "list", "-d", "{root}"],
    ["--json", "session", "list", "-d", "{root}"],
    ["session", "list", "--json", "--dir", "{root}"],
    ["-q", "session", "--dir={root}", "list"],
    ["session", "--json", "-d", "{root}", "list", "--quiet"],
    ["session", "-d", "{elsewhere}", "list", "-d", "{root}", "--json"],  # the subcommand's wins
    ["--debug", "session", "list", "--dir={root}", "--debug"],
]


CANONICAL = {False: ["session", "list", "-d", "{root}"],
             True: ["--json", "session", "list", "-d", "{root}"]}


@pytest.mark.parametrize("form", FORMS, ids=" ".join)
@pytest.mark.parametrize("setting", ["plain", "spanish", "plugin warning"])
def test_global_flags_anywhere_answer_as_the_canonical_form(
    form: list[str], setting: str, listed: Path, tmp_path: Path, squatter: dict[str, str]
) -> None:
    """A global flag means the same before, between or after the command's words, and
    the subcommand's ``-d`` wins over the group's."""
    args = [a.format(root=listed, elsewhere=tmp_path / "missing") for a in form]
    env = {"spanish": {"GZ_LANG": "es"}, "plugin warning": squatter}.get(setting, {})
    done = gz(*args, env=env)
    canonical = gz(*[a.format(root=listed) for a in CANONICAL["--json" in args]], env=env)
    assert done.exit_code == canonical.exit_code == 0
    quiet = "-q" in args or "--quiet" in args
    assert done.stdout == ("" if quiet and "--json" not in args else canonical.stdout)
    assert ("3f9a1c7e" in done.stdout) == ("--json" in args or not quiet)
    if not quiet and setting != "plugin warning":  # warned of before the command's flags
        assert done.stderr == canonical.stderr


@pytest.mark.parametrize(("args", "expected"), [
    (["-i", "--json"], {"prompt": "--json"}),
    (["--json", "-d"], {"json": True}),
    (["--json=1", "-q", "--json=2"], {"quiet": True}),
    (["--bogus", "--debug"], {"debug": True}),
    (["--", "--json"], {}),
    (["-qx", "word", "--json"], {"quiet": True, "json": True}),
])
def test_global_flags_are_read_by_the_commands_own_parser(
    args: list[str], expected: dict[str, object]
) -> None:
    """After a usage error the flags are still known: click's parser reads them, leaving
    out what it refused (a flag given a value, an option lacking its value)."""
    from gzia.cli.global_flags import global_options

    command = click.Command("x", params=[click.Option(["-i", "prompt"]), *global_options()])
    assert lenient_parse(command, args) == expected


def test_hostile_misuse_of_a_flag_is_read_in_bounded_time() -> None:
    from gzia.cli.global_flags import global_options

    command = click.Command("x", params=global_options())
    started = time.monotonic()
    assert lenient_parse(command, ["--json=1"] * 200_000 + ["-q"]) == {"quiet": True}
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("form", [
    ["session", "list", "-d", "{missing}"],
    ["--json", "session", "list", "-d", "{missing}"],
    ["session", "list", "--dir={file}", "--json"],
])
def test_session_list_errors(form: list[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file") for a in form]
    done = gz(*args, env={"GZ_LANG": "es"})
    assert done.exit_code == 2
    if "--json" in args:
        assert json.loads(done.stdout)["ok"] is False
    else:
        assert not done.stdout and done.stderr.startswith("Error: ")


@pytest.mark.parametrize("form", [
    ["start", "-d", "{missing}"], ["start", "--dir={file}"], ["start", "--dir", "{repo}"],
])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_start_off_a_terminal(form: list[str], lang: str, tmp_path: Path) -> None:
    """A missing or wrong directory, or no terminal to draw on: an error, nothing drawn."""
    (tmp_path / "file").write_text("")
    repo = make_repo(tmp_path / "repo")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file", repo=repo)
            for a in form]
    done = gz(*args, env={"GZ_LANG": lang})
    assert done.exit_code == 2 and done.stderr and not done.stdout


@pytest.mark.parametrize("args", [[], ["--json"], ["-q", "--debug"]], ids=repr)
def test_no_command_off_a_terminal_is_the_help(args: list[str]) -> None:
    done = gz(*args)
    assert done.exit_code == 0
    help_page = gz("--help").stdout
    if "--json" in args:
        assert json.loads(done.stdout)["data"] == {"help": help_page.rstrip("\n")}
    else:
        assert done.stdout == help_page


def test_a_completion_script_calling_back_with_no_words_is_not_the_terminal_ui() -> None:
    done = gz(env={COMPLETE_VAR: "bash_complete", "COMP_WORDS": "gz-ia ", "COMP_CWORD": "1"})
    assert done.exit_code == 0
    assert "plain,session" in done.stdout.splitlines()


MCP_EXCHANGE = "\n".join(json.dumps(message) for message in [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "quick", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
     "params": {"name": "session_info", "arguments": {}}},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
]) + "\n"


@pytest.mark.parametrize("form", [
    ["mcp", "--session", "abcdef01"],
    ["--json", "mcp", "--session=abcd", "-d", "{root}"],
    ["mcp", "-q", "--dir={root}", "--session", "abcdef01", "--json"],
    ["mcp", "--allow-agent-get", "--session", "abcdef01", "--dir", "{root}", "--debug"],
], ids=" ".join)
def test_mcp_serves_the_protocol_alone(form: list[str], listed: Path) -> None:
    """stdout carries the protocol alone, ``--json`` or not: no envelope after it."""
    args = [a.format(root=listed) for a in form]
    done = gz(*args, stdin=MCP_EXCHANGE, cwd=listed)
    assert done.exit_code == 0, done.stderr
    answers = sorted((json.loads(line) for line in done.stdout.splitlines()),
                     key=lambda answer: answer["id"])  # calls may be answered in any order
    assert [answer["id"] for answer in answers] == [1, 2, 3]
    assert json.loads(answers[1]["result"]["content"][0]["text"])["id"] == "abcdef01"
    tools = {tool["name"] for tool in answers[2]["result"]["tools"]}
    assert ("worktree_get" in tools) == ("--allow-agent-get" in args)


@pytest.mark.parametrize(("form", "exit_code"), [
    (["mcp", "--session", "zzzz"], 2),  # INVALID_INPUT
    (["--json", "mcp", "--session", "0000"], 1),  # NOT_FOUND
    (["mcp", "--session", "abcdef01", "-d", "{missing}", "--json"], 2),  # no such directory
    (["mcp", "--session=abcdef01", "--dir={file}"], 2),  # not a directory
])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_mcp_errors(
    form: list[str], exit_code: int, lang: str, listed: Path, tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file") for a in form]
    done = gz(*args, env={"GZ_LANG": lang}, cwd=listed)
    assert done.exit_code == exit_code
    if "--json" in args:
        assert json.loads(done.stdout)["ok"] is False
    else:
        assert not done.stdout and done.stderr.startswith("Error: ")


def test_the_mcp_command_defaults_to_the_kernels_limits() -> None:
    import inspect

    from gzia.cli.mcp import app
    from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT
    from gzia.orchy.proxy import ToolProxy

    defaults = {param.name: param.default for param in app.params}
    assert defaults["tool_timeout"] == DEFAULT_TIMEOUT
    assert defaults["max_failures"] == DEFAULT_MAX_FAILURES
    kernel = inspect.signature(ToolProxy).parameters
    assert (kernel["timeout"].default, kernel["max_failures"].default) == (30.0, 5)


METRICS_FREE = """
import sys
from gzia.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.startswith("gzia.metrics"))
assert loaded == [], loaded
sys.exit(code)
"""


@pytest.mark.parametrize("args", [["--version"], ["session", "list", "-d", "{root}"]],
                         ids=" ".join)
def test_version_and_session_list_do_not_load_the_metrics_code(
    args: list[str], listed: Path
) -> None:
    argv = [a.format(root=listed) for a in args]
    done = subprocess.run([sys.executable, "-c", METRICS_FREE, *argv],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr  # the listed project warns of its bad record


@pytest.mark.pyz
def test_pyz_version_alone_imports_no_framework(pyz: Path, run_pyz: RunPyz) -> None:
    """``--version`` is the one answer given before the parser."""
    assert run_pyz("--version").exit_code == 0  # the first run unpacks the archive
    done = subprocess.run([sys.executable, "-X", "importtime", str(pyz), "--version"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "gzia.cli" in imported
    assert {"click", "typer", "subprocess", "gzia.cli.runner"} & imported == set()
    assert done.stdout.startswith("gz-ia v")


@pytest.mark.pyz
def test_pyz_session_list_help(run_pyz: RunPyz) -> None:
    result = run_pyz("session", "list", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: gz-ia session list [OPTIONS]")


@pytest.mark.parametrize("args", [["--version"], ["session", "list", "--json"],
                                  ["session", "show", "abcdef01", "--json"]])
def test_commands_other_than_mcp_never_import_the_mcp_sdk(listed: Path, args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gzia", *args],
                          cwd=listed, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "gzia.cli" in imported
    assert {"mcp", "mcp_types", "pydantic", "pydantic_core", "anyio"} & imported == set()
