"""A third-party driver (tests/plugins/gzia-example-driver), installed for real with pip."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.drivers import LaunchRequest, Permission, get_driver
from tests.conftest import Result
from tests.drivers.driver_fakes import FakeAgents
from tests.plugin_installs import pip_install_target

EXAMPLE_MISSING = {
    "id": "example", "name": "Example Agent (example)", "binary": "example-agent",
    "path": None, "available": False, "version": None,
    "install_hint": "pip install example-agent", "mcp_support": "flag",
    "state_method": "detector",  # a driver that declares none: the detector
}


@pytest.fixture(scope="session")
def driver_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pip_install_target("gzia-example-driver", tmp_path_factory.mktemp("driver-site"))


def gz(*args: str, env: dict[str, str], cwd: Path | None = None) -> Result:
    done = subprocess.run([sys.executable, "-m", "gzia", *args], env={**os.environ, **env},
                          cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)
    return Result(done.returncode, done.stdout, done.stderr)


def assert_session_ran_the_example_agent(result: Result, fake_agents: FakeAgents) -> None:
    """``chat -p example`` finished, and the agent ran in the session's worktree."""
    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert (record["provider"], record["status"], record["exit_code"], record["mode"],
            record["permission_level"], record["is_isolated"]) == (
        "example", "completed", 0, "chat", "autonomous", True)
    recorded = fake_agents.recorded()
    mcp_config = Path(record["working_dir"]) / ".harness" / "mcp" / f"{record['id']}.json"
    assert recorded["args"] == ["--mode", "yolo", "--mcp", str(mcp_config), "--prompt", "ship it"]
    assert recorded["cwd"] == record["worktree_dir"]
    assert Path(record["worktree_dir"]).parent.name == "worktrees"


def listed(result: Result) -> dict[str, dict[str, Any]]:
    assert result.exit_code == 0, result.stderr
    document = result.json
    assert document["warnings"] == []
    return {d["id"]: d for d in document["data"]["drivers"]}


def test_pip_installed_driver_is_listed(driver_site: Path, fake_agents: FakeAgents) -> None:
    env = {"PYTHONPATH": str(driver_site), "PATH": str(fake_agents.bin)}
    drivers = listed(gz("drivers", "--json", env=env))
    assert list(drivers) == ["agy", "claude", "opencode", "pi-agent", "shell", "example"]
    assert drivers["example"] == EXAMPLE_MISSING

    agent = fake_agents.install("example-agent", version_text="example-agent 4.2.0")
    drivers = listed(gz("drivers", "--json", env=env))
    assert drivers["example"] == {**EXAMPLE_MISSING, "path": str(agent), "available": True,
                                  "version": "4.2.0"}


def test_pip_installed_driver_launches_its_agent(
    driver_site: Path, fake_agents: FakeAgents, workdir: Path, monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.syspath_prepend(str(driver_site))
    agent = fake_agents.install("example-agent")
    env = fake_agents.env(EXAMPLE_AGENT_NESTED="1")
    mcp = tmp_path / "mcp.json"
    request = LaunchRequest(workdir, Permission.AUTONOMOUS, "ship it", None, True, env,
                            mcp_config=mcp)
    spec = get_driver("example").launch(request)
    expected_env = {k: v for k, v in env.items() if k != "EXAMPLE_AGENT_NESTED"}
    args = ["--mode", "yolo", "--mcp", str(mcp), "--continue", "--prompt", "ship it"]
    assert (spec.argv, spec.env) == ([str(agent), *args], expected_env)
    subprocess.run(spec.argv, env=spec.env, cwd=workdir, check=True, timeout=30)
    recorded = fake_agents.recorded()
    assert (recorded["args"], recorded["cwd"]) == (args, str(workdir))


def test_pip_installed_driver_runs_a_session(
    driver_site: Path, fake_agents: FakeAgents, repo: Path
) -> None:
    fake_agents.install("example-agent")
    env = {"PYTHONPATH": str(driver_site),
           "PATH": os.pathsep.join([str(fake_agents.bin), os.environ["PATH"]]),
           "FAKE_AGENT_RECORD": str(fake_agents.record_file)}
    result = gz("--json", "chat", "-p", "example", "-m", "autonomous", "-i", "ship it",
                env=env, cwd=repo)
    assert_session_ran_the_example_agent(result, fake_agents)


@pytest.mark.pyz
def test_pyz_lists_a_driver_from_the_plugins_directory(
    run_pyz: Callable[..., Result], tmp_path: Path, fake_agents: FakeAgents
) -> None:
    plugins_dir = pip_install_target("gzia-example-driver", tmp_path / "plugins")
    agent = fake_agents.install("example-agent", version_text="example-agent 4.2.0")
    env = {"GZ_PLUGIN_PATH": str(plugins_dir), "PATH": str(fake_agents.bin)}
    drivers = listed(run_pyz("drivers", "--json", env=env))
    assert drivers["example"] == {**EXAMPLE_MISSING, "path": str(agent), "available": True,
                                  "version": "4.2.0"}
    assert drivers["shell"]["available"] is True
    assert [d["available"] for d in drivers.values()] == [False] * 4 + [True, True]


@pytest.mark.pyz
def test_pyz_runs_a_session_with_a_driver_from_the_plugins_directory(
    run_pyz: Callable[..., Result], tmp_path: Path, fake_agents: FakeAgents, repo: Path
) -> None:
    plugins_dir = pip_install_target("gzia-example-driver", tmp_path / "plugins")
    fake_agents.install("example-agent")
    env = {"GZ_PLUGIN_PATH": str(plugins_dir),
           "PATH": os.pathsep.join([str(fake_agents.bin), os.environ["PATH"]]),
           "FAKE_AGENT_RECORD": str(fake_agents.record_file)}
    result = run_pyz("--json", "chat", "-p", "example", "-m", "autonomous", "-i", "ship it",
                     env=env, cwd=repo)
    assert_session_ran_the_example_agent(result, fake_agents)
