"""The help pages that name the agents take them from the driver registry (docs/plugins.md,
"Writing a driver plugin"): a plugin's agent is named beside the built-in ones, a command
driver (one that runs a given command, like ``shell``) is not; and naming them imports none
of what a session runs. Real ``gz-ia`` processes, a plugin laid out as pip lays one out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_lazy_commands import LOADED
from tests.drivers.driver_fakes import write_plugin

PLUGIN = """
    from gzia.drivers import ExecutableDriver

    class Wren(ExecutableDriver):
        id = "wren"
        display_name = "Wren (wren)"
        binary = "wren"

    class Runner(ExecutableDriver):
        id = "runner"
        display_name = "Runner (runner)"
        binary = "runner"
        runs_commands = True
"""
AGENTS = "agy, claude, opencode, pi-agent, wren"


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    write_plugin(plugins, "gzia-wren", {"wren": "wren_plugin:Wren", "runner": "wren_plugin:Runner"},
                 "wren_plugin", PLUGIN)
    return {**os.environ, "GZ_PLUGIN_PATH": str(plugins), "COLUMNS": "300"}


def gz(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("lang", "chat", "metrics"), [
    ("en", "Start a new interactive chat with an agent ({agents}) in an isolated worktree.",
     "Only sessions of this agent ({agents})."),
    ("es", "Inicia un nuevo chat interactivo con el agente ({agents}) en un worktree aislado.",
     "Solo las sesiones de este agente ({agents})."),
])
def test_pages_name_the_agents_of_the_registry_a_plugins_included(
        plugin_env: dict[str, str], lang: str, chat: str, metrics: str) -> None:
    env = {**plugin_env, "GZ_LANG": lang}
    chat, metrics = chat.format(agents=AGENTS), metrics.format(agents=AGENTS)
    assert f"\n  {chat}\n" in gz(env, "chat", "--help")
    assert f"  chat        {chat}\n" in gz(env, "--help")
    assert metrics in gz(env, "metrics", "--help")
    assert chat in json.loads(gz(env, "--json", "chat", "--help"))["data"]["help"]


def test_without_plugins_the_built_in_agents_are_named(plugin_env: dict[str, str]) -> None:
    page = gz({**plugin_env, "GZ_DISABLE_PLUGINS": "all"}, "chat", "--help")
    assert "with an agent (agy, claude, opencode, pi-agent) in an isolated worktree." in page


@pytest.mark.parametrize("args", [["--help"], ["chat", "--help"], ["metrics", "--help"]],
                         ids=" ".join)
def test_naming_the_agents_imports_no_run_machinery(plugin_env: dict[str, str],
                                                    args: list[str], tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", LOADED, *args], env=plugin_env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stderr[done.stderr.index("["):]))
    assert "wren_plugin" in loaded  # the page named the agents: the drivers were loaded
    machinery = {"gzia.sessions.run", "gzia.sessions.resuming", "gzia.sessions.store",
                 "gzia.sessions.workspace", "gzia.doctor"}
    assert loaded & machinery == set()

