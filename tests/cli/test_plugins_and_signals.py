"""Plugins installed for real (pip) and gz-ia run as a real process: signals, pipes, debug."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.plugin_installs import pip_install_target

RunPyz = Callable[..., Result]


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding both test plugins, installed with pip."""
    target = tmp_path_factory.mktemp("plugin-site")
    pip_install_target("gzia-example-commands", target)
    pip_install_target("gzia-broken-plugin", target)
    return target


def gz(*args: str, plugin_site: Path, env: dict[str, str] | None = None) -> Result:
    """``python -m gzia`` with the plugins importable, as a pip install would make them."""
    full_env = {**os.environ, "PYTHONPATH": str(plugin_site), **(env or {})}
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env=full_env,
                          capture_output=True, text=True, timeout=60, check=False)
    return Result(done.returncode, done.stdout, done.stderr)


def test_installed_plugin_command_runs(plugin_site: Path) -> None:
    assert gz("example", "hello", "--name", "ops", plugin_site=plugin_site) == \
        Result(0, "hello ops\n", "")
    assert gz("example", "hello", "--json", plugin_site=plugin_site).json == {
        "ok": True, "data": {"greeting": "hello world"}, "errors": [], "warnings": []}


def test_json_given_as_a_value_is_not_json_mode(plugin_site: Path) -> None:
    result = gz("example", "hello", "--name", "--json", plugin_site=plugin_site)
    assert result == Result(0, "hello --json\n", "")
    result = gz("example", "hello", "--name", "--json", "--bogus", plugin_site=plugin_site)
    assert result == Result(2, "", "Error: unknown flag: --bogus\n")


@pytest.mark.parametrize(("env", "args", "stderr"), [
    ({}, ["example", "helo"], "Error: unknown command: helo\ndid you mean: hello?\n"),
    ({"GZ_LANG": "es"}, ["help", "example", "helo"],
     "Error: comando desconocido: helo\n¿quisiste decir: hello?\n"),
    ({"GZ_LANG": "es"}, ["example", "hello", "--nme", "x"],
     "Error: unknown flag: --nme\n¿quisiste decir: --name?\n"),
])
def test_a_plugin_commands_typo_suggests_too(plugin_site: Path, env: dict[str, str],
                                             args: list[str], stderr: str) -> None:
    assert gz(*args, plugin_site=plugin_site, env=env) == Result(2, "", stderr)


def test_a_typer_plugin_does_not_offer_typers_own_completion(plugin_site: Path) -> None:
    """typer's --install-completion would install a script gz-ia does not answer."""
    page = gz("example", "--help", plugin_site=plugin_site)
    assert page.exit_code == 0 and "--json" in page.stdout
    assert "completion" not in page.stdout
    assert gz("example", "--show-completion", plugin_site=plugin_site).exit_code == 2


def test_broken_plugin_is_a_warning_and_other_commands_work(plugin_site: Path) -> None:
    assert gz("version", plugin_site=plugin_site).exit_code == 0
    assert gz("config", "path", plugin_site=plugin_site).exit_code == 0
    listing = gz("plugins", "--json", plugin_site=plugin_site).json
    assert listing["ok"] is True
    [failure] = listing["data"]["failed"]
    assert failure == {
        "group": "gzia.commands", "name": "broken", "value": "gzia_broken_plugin:app",
        "distribution": "gzia-broken-plugin", "origin": "installed",
        "error": "ImportError: No module named 'a_dependency_that_is_missing'"}
    names = {p["name"] for p in listing["data"]["plugins"]}
    assert {"example", "config", "doctor", "plugins", "version"} <= names


def test_calling_the_broken_plugin_fails_clearly(plugin_site: Path) -> None:
    result = gz("broken", plugin_site=plugin_site)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Warning: plugin 'broken' from gzia-broken-plugin failed to load: "
        "ImportError: No module named 'a_dependency_that_is_missing'",
        "Error: command 'broken' could not be loaded: its plugin gzia-broken-plugin failed",
        "run again with --debug (or GZ_DEBUG=1) to see the traceback",
    ]
    envelope = gz("--json", "broken", plugin_site=plugin_site).json
    assert envelope["errors"][0]["code"] == "INTERNAL"
    assert envelope["warnings"][0]["code"] == "PLUGIN_FAILED"


def test_help_lists_plugins_and_warns_about_the_broken_one(plugin_site: Path) -> None:
    result = gz("--help", plugin_site=plugin_site)
    assert result.exit_code == 0
    assert "  example " in result.stdout
    assert "plugin 'broken' from gzia-broken-plugin failed to load" in result.stderr


def test_disabled_plugins_are_not_loaded(plugin_site: Path) -> None:
    env = {"GZ_DISABLE_PLUGINS": "gzia-example-commands"}
    assert gz("example", "hello", plugin_site=plugin_site, env=env).exit_code == 2
    env = {"GZ_DISABLE_PLUGINS": "all"}
    listing = gz("plugins", "--json", plugin_site=plugin_site, env=env).json["data"]
    assert listing["failed"] == []
    assert all(p["origin"] == "builtin" for p in listing["plugins"])


def test_domain_error_from_a_plugin(plugin_site: Path) -> None:
    assert gz("example", "fail", plugin_site=plugin_site) == \
        Result(1, "", "Error: I/O error: disk full\n")
    assert gz("example", "fail", plugin_site=plugin_site, env={"GZ_LANG": "es"}) == \
        Result(1, "", "Error: error de E/S: disk full\n")


def test_traceback_only_for_internal_errors_with_debug(plugin_site: Path) -> None:
    plain = gz("example", "crash", plugin_site=plugin_site)
    assert plain == Result(1, "", "Error: internal error: RuntimeError: boom\n"
                                  "run again with --debug (or GZ_DEBUG=1) to see the traceback\n")
    for result in (gz("example", "crash", "--debug", plugin_site=plugin_site),
                   gz("example", "crash", plugin_site=plugin_site, env={"GZ_DEBUG": "1"})):
        assert result.exit_code == 1
        assert "Traceback (most recent call last)" in result.stderr
        assert 'raise RuntimeError("boom")' in result.stderr
    assert "Traceback" not in gz("example", "fail", "--debug", plugin_site=plugin_site).stderr


def start_waiting(plugin_site: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(plugin_site)}
    child = subprocess.Popen([sys.executable, "-m", "gzia", "example", "wait", *extra],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    assert child.stderr.readline() == "waiting\n"  # the command is running
    return child


@pytest.mark.parametrize(("signum", "exit_code", "code", "message"), [
    (signal.SIGINT, 130, "INTERRUPTED", "interrupted"),
    (signal.SIGTERM, 143, "TERMINATED", "terminated"),
])
def test_signals_give_their_exit_codes_and_one_envelope(
    plugin_site: Path, signum: int, exit_code: int, code: str, message: str
) -> None:
    child = start_waiting(plugin_site, "--json")
    child.send_signal(signum)
    stdout, _ = child.communicate(timeout=30)
    assert child.returncode == exit_code
    assert json.loads(stdout) == {"ok": False, "data": None, "errors": [{
        "code": code, "message": message, "retryable": False, "hint": None, "details": {}}],
        "warnings": []}


def test_sigint_in_human_mode(plugin_site: Path) -> None:
    child = start_waiting(plugin_site)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=30)
    assert (child.returncode, stdout, stderr) == (130, "", "Error: interrupted\n")


def test_closed_pipe_is_quiet(plugin_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(plugin_site)}
    child = subprocess.Popen([sys.executable, "-m", "gzia", "example", "flood"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(10) == b"line 0\nlin"  # like `| head -c 10`
    child.stdout.close()
    stderr = child.stderr.read()
    assert child.wait(timeout=30) == 0
    assert stderr == b""


def test_big_json_envelope_is_complete_through_a_pipe(plugin_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(plugin_site)}
    child = subprocess.Popen([sys.executable, "-m", "gzia", "--json", "plugins"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.3)  # let it write into a pipe nobody reads yet
    stdout, _ = child.communicate(timeout=30)
    assert json.loads(stdout)["ok"] is True


@pytest.mark.pyz
def test_pyz_loads_plugins_from_the_plugins_directory(
    run_pyz: RunPyz, tmp_path: Path
) -> None:
    plugins_dir = pip_install_target("gzia-example-commands", tmp_path / "plugins")
    pip_install_target("gzia-broken-plugin", plugins_dir)
    env = {"GZ_PLUGIN_PATH": str(plugins_dir)}
    assert run_pyz("example", "hello", env=env) == Result(0, "hello world\n", "")
    listing = run_pyz("plugins", "--json", env=env).json["data"]
    origins = {p["name"]: p["origin"] for p in listing["plugins"]}
    assert origins["example"] == "plugin-dir"
    assert origins["version"] == "builtin"
    assert [f["name"] for f in listing["failed"]] == ["broken"]
    assert run_pyz("version", env=env).exit_code == 0


@pytest.mark.pyz
def test_pyz_default_plugins_directory_is_under_the_data_dir(
    run_pyz: RunPyz, isolated_env: Path
) -> None:
    data_dir = Path(os.environ["XDG_DATA_HOME"]) / "gz-ia" / "plugins"
    pip_install_target("gzia-example-commands", data_dir)
    assert run_pyz("example", "hello", "--name", "pyz") == Result(0, "hello pyz\n", "")


def slow_plugin_dir(root: Path) -> Path:
    """A plugins directory whose one driver plugin takes its time to import."""
    root.mkdir()
    (root / "slow_plugin.py").write_text(
        "import sys, time\nsys.stderr.write('importing\\n'); sys.stderr.flush()\n"
        "time.sleep(5)\ndriver = None\n")
    info = root / "slow_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: slow-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gzia.drivers]\nslow = slow_plugin:driver\n")
    return root


@pytest.mark.parametrize("command", [["plugins"], ["doctor"]])
def test_sigterm_while_a_plugin_imports_is_not_a_plugin_failure(
    tmp_path: Path, command: list[str]
) -> None:
    env = {**os.environ, "GZ_PLUGIN_PATH": str(slow_plugin_dir(tmp_path / "plugins"))}
    child = subprocess.Popen([sys.executable, "-m", "gzia", *command, "--json"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    assert child.stderr.readline() == "importing\n"
    child.send_signal(signal.SIGTERM)
    stdout, _ = child.communicate(timeout=30)
    assert child.returncode == 143
    assert json.loads(stdout) == {"ok": False, "data": None, "errors": [{
        "code": "TERMINATED", "message": "terminated", "retryable": False, "hint": None,
        "details": {}}], "warnings": []}


def gz_with_stdout(stdout: int | None, *args: str, cwd: Path | None = None,
                   close_stdout: bool = False) -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "gzia", *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
        text=True, timeout=60, check=False,
        preexec_fn=(lambda: os.close(1)) if close_stdout else None,
    )
    return Result(done.returncode, "", done.stderr)


@pytest.mark.parametrize("args", [["version"], ["--json", "config", "path"], ["--help"]])
def test_closed_stdout_is_like_a_reader_that_went_away(args: list[str]) -> None:
    assert gz_with_stdout(None, *args, close_stdout=True) == Result(0, "", "")


def test_a_run_with_stdout_closed_does_not_lend_fd_1_to_the_agent(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    result = gz_with_stdout(None, "-q", "exec", "--", "sh", "-c", "echo agent-output",
                            cwd=tmp_path, close_stdout=True)
    assert result == Result(0, "", "")
    logs = list((tmp_path / ".harness" / "logs").glob("*.log"))
    assert [log.read_bytes() for log in logs] == [b"agent-output\n"]  # its own output log
    for file in (tmp_path / ".harness").rglob("*"):
        if file.is_file() and file not in logs:
            assert b"agent-output\n" not in file.read_bytes(), file


@pytest.mark.parametrize(("args", "env_lang", "stderr"), [
    (["--json", "config", "path"], "en", "Error: I/O error: No space left on device\n"),
    (["version", "--json"], "es", "Error: error de E/S: No space left on device\n"),
    (["config", "path"], "en", "Error: I/O error: No space left on device\n"),
    (["--version"], "es", "Error: error de E/S: No space left on device\n"),
])
def test_stdout_that_cannot_be_written_is_one_io_error(
    args: list[str], env_lang: str, stderr: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Buffered, as users run it (the suite clears PYTHONUNBUFFERED): the failure is
    reported once and the interpreter's last flush does not fail again (exit 120)."""
    monkeypatch.setenv("GZ_LANG", env_lang)
    with open("/dev/full", "w") as full:
        assert gz_with_stdout(full.fileno(), *args) == Result(1, "", stderr)


@pytest.mark.parametrize("args", [["--json", "config", "path"], ["config", "path"]])
def test_stdout_and_stderr_that_cannot_be_written_exit_1(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "gzia", *args], stdout=full,
                              stderr=full, timeout=60, check=False)
    assert done.returncode == 1


@pytest.mark.parametrize("args", [["--json", "noisy"], ["noisy", "--json"]])
def test_stray_prints_never_break_the_one_json_document(tmp_path: Path, args: list[str]) -> None:
    root = tmp_path / "plugins"
    root.mkdir()
    (root / "noisy_plugin.py").write_text(
        "import click\nprint('imported')\n\n"
        "@click.command()\ndef app():\n    print('stray')\n"
        "    from gzia.cli import output\n    output.emit({'n': 1})\n")
    info = root / "noisy_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: noisy-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gzia.commands]\nnoisy = noisy_plugin:app\n")
    env = {**os.environ, "GZ_PLUGIN_PATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, json.loads(done.stdout)) == (0, {
        "ok": True, "data": {"n": 1}, "errors": [], "warnings": []})
    assert done.stderr == "imported\nstray\n"


@pytest.mark.parametrize(("body", "exit_code", "envelope"), [
    ("raise SystemExit(3)", 1, {"ok": False, "data": None, "errors": [{
        "code": "INTERNAL", "message": "the command exited with code 3 without saying why",
        "retryable": False, "hint": None, "details": {"exit_code": 3}}], "warnings": []}),
    ("raise click.exceptions.Exit(4)", 1, {"ok": False, "data": None, "errors": [{
        "code": "INTERNAL", "message": "the command exited with code 4 without saying why",
        "retryable": False, "hint": None, "details": {"exit_code": 4}}], "warnings": []}),
    ("raise SystemExit(0)", 0, {"ok": True, "data": None, "errors": [], "warnings": []}),
])
def test_a_command_that_exits_by_itself_still_gets_its_envelope(
    tmp_path: Path, body: str, exit_code: int, envelope: dict[str, object]
) -> None:
    root = tmp_path / "plugins"
    root.mkdir()
    (root / "exiting_plugin.py").write_text(
        f"import click\n\n@click.command()\ndef app():\n    {body}\n")
    info = root / "exiting_plugin-1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text("[gzia.commands]\nexiting = exiting_plugin:app\n")
    env = {**os.environ, "GZ_PLUGIN_PATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "gzia", "exiting", "--json"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, json.loads(done.stdout)) == (exit_code, envelope)



CHILD_AND_RAW = """
import os
import subprocess
import sys

import click

from gzia.cli.output import Output


@click.command()
@click.pass_obj
def app(out):
    subprocess.run([sys.executable, "-c", "print('child')"], check=True)
    os.write(1, b"raw\\n")
    print("stray")
    out.emit({"reporter": isinstance(out, Output), "stdout": sys.stdout is sys.__stdout__})
"""


@pytest.mark.parametrize("args", [["--json", "raw"], ["raw", "--json"]])
def test_json_mode_keeps_stdout_for_the_document_without_replacing_sys_stdout(
    tmp_path: Path, args: list[str]
) -> None:
    """The reporter reaches the command as click's ctx.obj; a child process and a raw
    write to descriptor 1 go to stderr, and sys.stdout is the process's own."""
    root = tmp_path / "plugins"
    (root / "raw_plugin-1.0.dist-info").mkdir(parents=True)
    (root / "raw_plugin.py").write_text(CHILD_AND_RAW)
    (root / "raw_plugin-1.0.dist-info" / "entry_points.txt").write_text(
        "[gzia.commands]\nraw = raw_plugin:app\n")
    env = {**os.environ, "GZ_PLUGIN_PATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, json.loads(done.stdout)) == (0, {
        "ok": True, "data": {"reporter": True, "stdout": True}, "errors": [], "warnings": []})
    assert sorted(done.stderr.splitlines()) == ["child", "raw", "stray"]
