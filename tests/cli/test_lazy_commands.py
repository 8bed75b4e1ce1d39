"""Commands load when named: a session subcommand imports its own module and no other
command's; typer is not imported for built-in commands; a plugin's typer app is adapted
through typer's public API, its own objects left as they were."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer

import gzia.cli.session
from gzia.plugins import iter_entry_points
from tests.sessions.session_testkit import make_repo, make_session

LOADED = """
import json, sys
from gzia.cli import main
code = main(sys.argv[1:])
sys.stderr.write(json.dumps(sorted(sys.modules)))
sys.exit(code)
"""


def command_modules() -> set[str]:
    """Every module that defines a built-in command or session subcommand."""
    top = {ep.value.partition(":")[0] for ep in iter_entry_points("gzia.commands")
           if ep.distribution == "gz-ia"}
    session = Path(gzia.cli.session.__file__).parent
    return top | {f"gzia.cli.session.{file.stem}" for file in session.glob("*.py")
                  if file.stem not in ("__init__", "common")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "repo")
    from gzia.sessions.project import find_project

    make_session(find_project(root), "abcdef01")
    return root


@pytest.mark.parametrize(("args", "own"), [
    (["session", "list"], {"gzia.cli.session.listing"}),
    (["session", "list", "--status", "running"], {"gzia.cli.session.listing"}),
    (["session", "show", "abcdef01"], {"gzia.cli.session.show"}),
    (["--json", "session", "diff", "abcdef01"], {"gzia.cli.session.diff"}),
    (["version"], {"gzia.cli.version"}),
], ids=" ".join)
def test_a_command_imports_its_own_module_and_no_other_command(
    args: list[str], own: set[str], project: Path
) -> None:
    done = subprocess.run([sys.executable, "-c", LOADED, *args], cwd=project,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stderr[done.stderr.index("["):]))
    group = {"gzia.cli.session.commands"} if args[-2:][0] != "version" and "session" in args \
        else set()
    assert loaded & command_modules() == own | group
    assert "typer" not in loaded


NOT_ON_EVERY_START = {
    "gzia.update.trust", "gzia.update.model", "gzia.update.minisign", "packaging", "secrets",
    "hashlib", "gzia.update.installer",
}
"""The update machinery: the minimum-version notice every command carries reads the cached
manifest without it, and finds the command it advises only when it warns
(docs/performance.md)."""


@pytest.mark.parametrize("args", [
    ["session", "list"], ["session", "show", "abcdef01"], ["--json", "version"],
], ids=" ".join)
def test_the_release_notice_imports_no_update_machinery(args: list[str], project: Path) -> None:
    done = subprocess.run([sys.executable, "-c", LOADED, *args], cwd=project,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stderr[done.stderr.index("["):]))
    assert loaded & NOT_ON_EVERY_START == set()


def test_help_imports_every_command_but_not_what_they_run(project: Path) -> None:
    """``--help`` imports every command for its summary line; the machinery a command runs
    (a session's run, the store, doctor's checks, the updater) is imported when it runs."""
    done = subprocess.run([sys.executable, "-c", LOADED, "--help"], cwd=project,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stderr[done.stderr.index("["):]))
    machinery = {"gzia.sessions.run", "gzia.sessions.resuming", "gzia.sessions.store",
                 "gzia.doctor", *NOT_ON_EVERY_START}
    assert loaded & machinery == set()


GREET = '''
import typer
from gzia.cli import output

app = typer.Typer(help="Greetings.", rich_markup_mode="rich")


@app.command()
def hello(name: str = typer.Argument(help="Who to greet.")) -> None:
    """Greet someone."""
    output.emit({"greeting": name}, lambda: output.line(f"hello {name}"))


@app.command()
def bye() -> None:
    """Say goodbye."""
'''


@pytest.fixture
def greet_plugin(tmp_path: Path) -> dict[str, str]:
    plugins = tmp_path / "plugins"
    (plugins / "gzia_greet-1.0.dist-info").mkdir(parents=True)
    (plugins / "gzia_greet-1.0.dist-info" / "entry_points.txt").write_text(
        "[gzia.commands]\ngreet = greet_plugin:app\n")
    (plugins / "greet_plugin.py").write_text(GREET)
    return {**os.environ, "GZ_PLUGIN_PATH": str(plugins)}


def gz(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gzia", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False)


def test_a_typer_plugin_runs_with_the_global_options_and_plain_help(
    greet_plugin: dict[str, str]
) -> None:
    assert json.loads(gz(greet_plugin, "greet", "hello", "Ann", "--json").stdout)["data"] == {
        "greeting": "Ann"}
    page = json.loads(gz(greet_plugin, "greet", "hello", "--help", "--json").stdout)
    assert page["data"]["help"] == (
        "Usage: gz-ia greet hello [OPTIONS] NAME\n\n  Greet someone.\n\nArguments:\n"
        "  NAME  Who to greet.  [required]\n\nOptions:\n"
        "  --json       Write one JSON document to stdout.\n"
        "  -q, --quiet  Print only errors.\n"
        "  --debug      Show tracebacks of internal errors.\n"
        "  -h, --help   Show this message and exit.")
    unknown = gz(greet_plugin, "greet", "hello", "--bogus", "--json")
    assert unknown.returncode == 2
    assert json.loads(unknown.stdout)["errors"][0]["code"] == "UNKNOWN_FLAG"
    missing = gz(greet_plugin, "greet", "helo", "--json")
    assert json.loads(missing.stdout)["errors"][0]["details"]["suggestions"] == ["hello"]


def test_a_typer_plugin_is_adapted_and_left_as_it_was() -> None:
    from gzia.cli.plugin_commands import plugin_command

    namespace: dict[str, object] = {}
    exec(compile(GREET, "greet_plugin", "exec"), namespace)  # noqa: S102 - the test's own text
    app = namespace["app"]
    assert isinstance(app, typer.Typer)
    command = plugin_command(app, "greet")
    assert isinstance(command, click.Group)
    inner = command.inner  # type: ignore[attr-defined]
    assert type(inner) is typer.core.TyperGroup and inner.rich_markup_mode == "rich"
    ctx = click.Context(command, info_name="greet")
    hello = command.get_command(ctx, "hello")
    assert hello is not None and hello is not inner.commands["hello"]
    assert type(inner.commands["hello"]) is typer.core.TyperCommand
    assert [p.name for p in inner.commands["hello"].params] == ["name"]  # no option added
    assert {"json", "quiet", "debug"} <= {p.name for p in hello.params}
