"""gz-ia's read-only tools, allowed up front in a supervised session's per-session
settings (Claude Code's ``--settings`` ``permissions.allow``, opencode's permission
rules); every other tool of gz-ia's server still asks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.drivers import LaunchRequest, Permission, get_driver
from gzia.orchy.preapproved import read_only_tools
from tests.drivers.driver_fakes import FakeAgents

Launch = Callable[..., tuple[list[str], dict[str, str]]]

TOOLS = {"gz-ia": ("session_info", "workspace_status")}


@pytest.fixture
def launch(fake_agents: FakeAgents, workdir: Path) -> Launch:
    def launched(provider: str, permission: Permission,
                 tools: dict[str, tuple[str, ...]]) -> tuple[list[str], dict[str, str]]:
        fake_agents.install(provider)
        spec = get_driver(provider).launch(LaunchRequest(
            workdir, permission, None, None, False, fake_agents.env(),
            preapproved_tools=tools))
        return list(spec.argv[1:]), dict(spec.env)
    return launched


def test_gz_ias_own_read_only_tools_are_these() -> None:
    """docs/orchy.md lists them; a tool is one by its ``read_only`` flag alone."""
    assert set(read_only_tools()) >= {"orchy_health", "session_info", "workspace_status",
                                      "worktree_read"}
    assert {"workspace_commit", "session_log", "orchy_reset",
            "worktree_get"} & set(read_only_tools()) == set()


def test_claude_supervised_allows_them_in_its_session_settings(launch: Launch) -> None:
    argv, _ = launch("claude", Permission.SUPERVISED, TOOLS)
    settings = json.loads(argv[argv.index("--settings") + 1])
    assert settings == {"permissions": {"allow": ["mcp__gz-ia__session_info",
                                                  "mcp__gz-ia__workspace_status"]}}


@pytest.mark.parametrize("permission", [Permission.READONLY, Permission.AUTONOMOUS])
def test_claude_in_another_mode_gets_no_allow_list(permission: Permission,
                                                   launch: Launch) -> None:
    argv, _ = launch("claude", permission, TOOLS)
    assert "--settings" not in argv


def test_opencode_supervised_asks_for_the_server_and_allows_them(launch: Launch) -> None:
    _, env = launch("opencode", Permission.SUPERVISED, TOOLS)
    rules = json.loads(env["OPENCODE_PERMISSION"])
    assert list(rules.items()) == [  # opencode takes the last rule that matches
        ("edit", "ask"), ("bash", "ask"), ("gz-ia_*", "ask"),
        ("gz-ia_session_info", "allow"), ("gz-ia_workspace_status", "allow")]


def test_opencode_read_only_mode_is_unchanged(launch: Launch) -> None:
    _, env = launch("opencode", Permission.READONLY, TOOLS)
    assert json.loads(env["OPENCODE_PERMISSION"]) == {"edit": "deny", "bash": "deny"}
