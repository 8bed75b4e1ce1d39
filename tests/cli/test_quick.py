"""Commands answered without click (gzia.cli.quick) answer exactly as the full command line.

Each case runs twice as a real process through ``gzia.cli.main``: once as shipped (the
quick path answers, and click must never have been imported), once with the quick path
switched off (click answers). Exit code, stdout and stderr must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.cli.quick import COMPLETE_VAR, McpForm, parse_mcp, parse_session_list, parse_start
from gzia.sessions.project import find_project
from tests.conftest import Result
from tests.sessions.session_testkit import COMPLETED_ISOLATED, go_record, make_repo, make_session

RunPyz = Callable[..., Result]
QUICK = """
import sys
from gzia.cli import main
code = main(sys.argv[1:])
assert "click" not in sys.modules, "the full command line answered"
sys.exit(code)
"""
FULL = """
import sys
import gzia.cli.quick
gzia.cli.quick.answer = lambda args: None
from gzia.cli import main
sys.exit(main(sys.argv[1:]))
"""


def gz(*args: str, full: bool, env: dict[str, str] | None = None, stdin: str = "",
       cwd: Path | None = None) -> Result:
    program = FULL if full else QUICK
    done = subprocess.run([sys.executable, "-c", program, *args], env={**os.environ, **(env or {})},
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


@pytest.mark.parametrize("form", FORMS, ids=" ".join)
@pytest.mark.parametrize("setting", ["plain", "spanish", "plugin warning"])
def test_quick_forms_answer_as_the_full_command_line(
    form: list[str], setting: str, listed: Path, tmp_path: Path, squatter: dict[str, str]
) -> None:
    args = [a.format(root=listed, elsewhere=tmp_path / "missing") for a in form]
    assert parse_session_list(args) is not None
    env = {"spanish": {"GZ_LANG": "es"}, "plugin warning": squatter}.get(setting, {})
    quick = gz(*args, full=False, env=env)
    assert quick == gz(*args, full=True, env=env)
    assert quick.exit_code == 0
    quiet = "-q" in args or "--quiet" in args
    assert ("3f9a1c7e" in quick.stdout) == ("--json" in args or not quiet)


@pytest.mark.parametrize("form", [
    ["session", "list", "-d", "{missing}"],
    ["--json", "session", "list", "-d", "{missing}"],
    ["session", "list", "--dir={file}", "--json"],
])
def test_quick_errors_answer_as_the_full_command_line(form: list[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file") for a in form]
    quick = gz(*args, full=False, env={"GZ_LANG": "es"})
    assert quick == gz(*args, full=True, env={"GZ_LANG": "es"})
    assert quick.exit_code == 2


def test_quick_list_of_a_directory_outside_git(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    make_session(find_project(plain), "0badc0de", status="killed")
    args = ["session", "list", "-d", str(plain)]
    assert gz(*args, full=False) == gz(*args, full=True)


@pytest.mark.parametrize(("args", "expected"), [
    (["session", "list"], ([[], [], []], None)),
    (["--json", "session", "-q", "list", "--debug"], ([["--json"], ["-q"], ["--debug"]], None)),
    (["session", "-d", "a", "list"], ([[], [], []], "a")),
    (["session", "--dir=a", "list", "--dir", "b"], ([[], [], []], "b")),
    (["session", "-d", "list", "list"], ([[], [], []], "list")),
])
def test_forms_taken_by_the_quick_path(args: list[str], expected: object) -> None:
    assert parse_session_list(args) == expected


@pytest.mark.parametrize("args", [
    [], ["session"], ["list"], ["session", "list", "extra"], ["session", "list", "list"],
    ["session", "list", "--help"], ["session", "-h", "list"], ["--version", "session", "list"],
    ["session", "list", "-d"], ["session", "list", "--dir="], ["session", "list", "-d", "-q"],
    ["session", "list", "-d", "a", "-d", "b"], ["session", "list", "-da"],
    ["session", "list", "--json=1"], ["-d", "a", "session", "list"], ["session", "list", "--"],
    ["session", "show", "abcdef01"], ["session", "list", "--bogus"],
])
def test_other_forms_go_to_the_full_command_line(args: list[str]) -> None:
    assert parse_session_list(args) is None


@pytest.mark.parametrize("form", [
    ["start", "-d", "{missing}"], ["start", "--dir={file}"], ["start", "--dir", "{repo}"], [],
])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_quick_start_answers_as_the_full_command_line(form: list[str], lang: str,
                                                      tmp_path: Path) -> None:
    """Off a terminal: a missing or wrong directory, or no terminal to draw on (bare
    ``gz-ia`` off a terminal prints the help, from the full command line both times)."""
    (tmp_path / "file").write_text("")
    repo = make_repo(tmp_path / "repo")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file", repo=repo)
            for a in form]
    if not args:
        assert gz(full=True).exit_code == 0
        return
    quick = gz(*args, full=False, env={"GZ_LANG": lang})
    assert quick == gz(*args, full=True, env={"GZ_LANG": lang})
    assert quick.exit_code == 2 and quick.stderr and not quick.stdout


@pytest.mark.parametrize(("args", "expected"), [
    (["start"], (None,)), (["start", "-d", "a"], ("a",)), (["start", "--dir", "a"], ("a",)),
    (["start", "--dir=a"], ("a",)), (["start", "-d", "list"], ("list",)),
])
def test_start_forms_taken_by_the_quick_path(args: list[str], expected: object) -> None:
    assert parse_start(args) == expected


@pytest.mark.parametrize("args", [
    ["start", "-d"], ["start", "--dir="], ["start", "-d", "-q"], ["start", "-d", "a", "-d", "b"],
    ["start", "-da"], ["start", "--help"], ["--json", "start"], ["start", "--json"],
    ["start", "extra"], ["--debug"], ["session"],
])
def test_other_start_forms_go_to_the_full_command_line(args: list[str]) -> None:
    assert parse_start(args) is None


@pytest.mark.parametrize(("terminal", "completing", "expected"), [
    (True, False, (None,)), (False, False, None), (True, True, None),
])
def test_bare_gz_ia_is_quick_on_a_terminal_unless_a_completion_script_calls(
    terminal: bool, completing: bool, expected: object, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("gzia.cli.terminal_ui.on_a_terminal", lambda: terminal)
    if completing:
        monkeypatch.setenv(COMPLETE_VAR, "bash_complete")
    else:
        monkeypatch.delenv(COMPLETE_VAR, raising=False)
    assert parse_start([]) == expected


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
def test_quick_mcp_serves_as_the_full_command_line(form: list[str], listed: Path) -> None:
    """stdout carries the protocol alone, ``--json`` or not: no envelope after it."""
    args = [a.format(root=listed) for a in form]
    assert parse_mcp(args) is not None
    quick = gz(*args, full=False, stdin=MCP_EXCHANGE, cwd=listed)
    full = gz(*args, full=True, stdin=MCP_EXCHANGE, cwd=listed)
    assert (quick.exit_code, full.exit_code) == (0, 0), quick.stderr + full.stderr
    answers = sorted((json.loads(line) for line in quick.stdout.splitlines()),
                     key=lambda answer: answer["id"])  # calls may be answered in any order
    assert answers == sorted((json.loads(line) for line in full.stdout.splitlines()),
                             key=lambda answer: answer["id"])
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
def test_quick_mcp_errors_answer_as_the_full_command_line(
    form: list[str], exit_code: int, lang: str, listed: Path, tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("")
    args = [a.format(missing=tmp_path / "missing", file=tmp_path / "file") for a in form]
    assert parse_mcp(args) is not None
    quick = gz(*args, full=False, env={"GZ_LANG": lang}, cwd=listed)
    assert quick == gz(*args, full=True, env={"GZ_LANG": lang}, cwd=listed)
    assert quick.exit_code == exit_code
    if "--json" in args:
        assert json.loads(quick.stdout)["ok"] is False
    else:
        assert not quick.stdout and quick.stderr.startswith("Error: ")


@pytest.mark.parametrize(("args", "expected"), [
    (["mcp", "--session", "abcd"], McpForm([], [], "abcd")),
    (["--json", "-q", "mcp", "--debug", "--session=abcd", "-d", "x"],
     McpForm(["--json", "-q"], ["--debug"], "abcd", "x")),
    (["mcp", "--allow-agent-get", "--dir=x", "--session", "mcp"],
     McpForm([], [], "mcp", "x", allow_agent_get=True)),
    (["mcp", "--session", "abcd", "--dir", "list"], McpForm([], [], "abcd", "list")),
])
def test_mcp_forms_taken_by_the_quick_path(args: list[str], expected: McpForm) -> None:
    assert parse_mcp(args) == expected


@pytest.mark.parametrize("args", [
    ["mcp"], ["mcp", "-d", "x"], ["mcp", "--session"], ["mcp", "--session="],
    ["mcp", "--session", "-q"], ["mcp", "--session", "a", "--session", "b"],
    ["mcp", "--session", "a", "-d", "x", "--dir=y"], ["mcp", "--session", "a", "-dx"],
    ["mcp", "--session", "a", "-d=x"], ["mcp", "--session", "a", "--allow-agent-get",
                                         "--allow-agent-get"],
    ["mcp", "--session", "a", "--tool-timeout", "5"], ["mcp", "--session", "a", "--max-failures=2"],
    ["mcp", "--session", "a", "--help"], ["mcp", "--session", "a", "extra"],
    ["-d", "x", "mcp", "--session", "a"], ["--session", "a", "mcp"], ["session", "list", "mcp"],
    ["mcp", "--session", "a", "--"], ["mcp", "--session", "a", "--json=1"],
])
def test_other_mcp_forms_go_to_the_full_command_line(args: list[str]) -> None:
    assert parse_mcp(args) is None


def test_the_full_mcp_command_defaults_to_the_kernels_limits() -> None:
    import inspect

    from gzia.cli.mcp import mcp
    from gzia.orchy.proxy import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT

    parameters = inspect.signature(mcp).parameters
    assert parameters["tool_timeout"].default == DEFAULT_TIMEOUT
    assert parameters["max_failures"].default == DEFAULT_MAX_FAILURES


METRICS_FREE = """
import sys
from gzia.cli import main
if sys.argv[1] == "full":
    import gzia.cli.quick
    gzia.cli.quick.answer = lambda args: None
code = main(sys.argv[2:])
loaded = sorted(m for m in sys.modules if m.startswith("gzia.metrics"))
assert loaded == [], loaded
sys.exit(code)
"""


@pytest.mark.parametrize("path", ["quick", "full"])
@pytest.mark.parametrize("args", [["--version"], ["session", "list", "-d", "{root}"]],
                         ids=" ".join)
def test_version_and_session_list_do_not_load_the_metrics_code(
    path: str, args: list[str], listed: Path
) -> None:
    argv = [a.format(root=listed) for a in args]
    done = subprocess.run([sys.executable, "-c", METRICS_FREE, path, *argv],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr  # the listed project warns of its bad record


@pytest.mark.pyz
def test_pyz_lists_sessions_without_importing_click_or_typer(
    pyz: Path, listed: Path, run_pyz: RunPyz
) -> None:
    assert run_pyz("--version").exit_code == 0  # the first run unpacks the archive
    done = subprocess.run([sys.executable, "-X", "importtime", str(pyz), "session", "list",
                           "--json", "-d", str(listed)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "gzia.sessions.store" in imported
    assert {"click", "typer", "subprocess"} & imported == set()
    assert '"id": "3f9a1c7e"' in done.stdout


@pytest.mark.pyz
def test_pyz_session_list_help_still_comes_from_the_full_command_line(run_pyz: RunPyz) -> None:
    result = run_pyz("session", "list", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: gz-ia session list [OPTIONS]")


def test_an_install_without_its_own_session_command_is_left_to_the_full_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], listed: Path
) -> None:
    import gzia.cli.plugin_warnings  # bound to the real discover before the patch, not after
    import gzia.plugins
    from gzia.cli import quick

    monkeypatch.setattr(gzia.plugins, "discover", lambda group: gzia.plugins.Discovery())
    assert quick.answer(["--json", "session", "list", "-d", str(listed)]) is None
    assert capsys.readouterr() == ("", "")


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
