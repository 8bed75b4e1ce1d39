"""An agent missing from PATH: exit 1, DRIVER_NOT_FOUND, the original's wording in Spanish."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.contract import DriverNotFoundError, ExitCode, classify, problem_from
from gzia.drivers import LaunchRequest, Permission, get_driver
from tests.conftest import Result
from tests.drivers.driver_fakes import FakeAgents

Cli = Callable[..., Result]

RENDERED = {
    "en": "Error: agent 'Claude Code (claude)' is not available on PATH.\n"
          "Install: npm install -g @anthropic-ai/claude-code\n",
    "es": "Error: el agente 'Claude Code (claude)' no está disponible en el PATH.\n"
          "Instalación: npm install -g @anthropic-ai/claude-code\n",
}


def launch_missing(provider: str, fake_agents: FakeAgents) -> DriverNotFoundError:
    request = LaunchRequest(fake_agents.root, Permission.SUPERVISED, "hi", None, False,
                            fake_agents.env())
    with pytest.raises(DriverNotFoundError) as caught:
        get_driver(provider).launch(request)
    return caught.value


def agent_path(fake_agents: FakeAgents) -> dict[str, str]:
    """The fake agents first on PATH, then the system (for git), which has no agent."""
    return {"PATH": os.pathsep.join([str(fake_agents.bin), os.environ["PATH"]])}


def test_chat_with_a_missing_agent(
    cli: Cli, fake_agents: FakeAgents, repo: Path, lang: str
) -> None:
    result = cli("chat", "-p", "claude", "-i", "hi", cwd=repo, env=agent_path(fake_agents))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", RENDERED[lang])
    assert not (repo / ".harness" / "sessions").exists() or not any(
        (repo / ".harness" / "sessions").iterdir())


def test_chat_with_a_missing_agent_as_json(
    cli: Cli, fake_agents: FakeAgents, repo: Path, lang: str
) -> None:
    result = cli("chat", "-p", "claude", "-i", "hi", "--json", cwd=repo,
                 env=agent_path(fake_agents))
    first, hint = RENDERED[lang].removeprefix("Error: ").splitlines()
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "DRIVER_NOT_FOUND", "message": first, "retryable": False, "hint": hint,
        "details": {"provider": "claude", "binary": "claude",
                    "install_hint": "npm install -g @anthropic-ai/claude-code"},
    }]}


@pytest.mark.parametrize(
    "case",
    [
        (["-p", "codex"],
         "unknown agent provider: 'codex' (valid: agy, claude, opencode, pi-agent, shell)",
         "proveedor de agente desconocido: 'codex' "
         "(válidos: agy, claude, opencode, pi-agent, shell)"),
        (["-p", "claude", "-m", "yolo"],
         "unknown permission level: 'yolo' (valid: readonly, supervised, autonomous)",
         "nivel de permiso desconocido: 'yolo' (válidos: readonly, supervised, autonomous)"),
        (["-p", "agy", "-m", "readonly"],
         "agent 'Google Antigravity (agy)' cannot be restricted to read-only; "
         "choose supervised or autonomous",
         "el agente 'Google Antigravity (agy)' no se puede restringir a solo lectura; "
         "elige supervised o autonomous"),
    ],
)
def test_chat_usage_errors_exit_2(
    cli: Cli, fake_agents: FakeAgents, repo: Path, lang: str, case: tuple[list[str], str, str]
) -> None:
    args, en, es = case
    fake_agents.install("agy")
    fake_agents.install("claude")
    result = cli("chat", *args, "-i", "hi", cwd=repo, env=agent_path(fake_agents))
    message = {"en": en, "es": es}[lang]
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: {message}\n")
    assert not fake_agents.record_file.exists()


def test_json_problem(fake_agents: FakeAgents, lang: str) -> None:
    error = launch_missing("claude", fake_agents)
    assert classify(error) == (ExitCode.FAILURE, "DRIVER_NOT_FOUND")
    first, hint = RENDERED[lang].removeprefix("Error: ").splitlines()
    assert problem_from(error).to_json() == {
        "code": "DRIVER_NOT_FOUND",
        "message": first,
        "retryable": False,
        "hint": hint,
        "details": {"provider": "claude", "binary": "claude",
                    "install_hint": "npm install -g @anthropic-ai/claude-code"},
    }


@pytest.mark.parametrize(
    ("provider", "en", "es"),
    [
        ("agy", "agent 'Google Antigravity (agy)' is not available on PATH.",
         "el agente 'Google Antigravity (agy)' no está disponible en el PATH."),
        ("opencode", "agent 'OpenCode (opencode)' is not available on PATH.",
         "el agente 'OpenCode (opencode)' no está disponible en el PATH."),
        ("pi-agent", "agent 'Pi Agent (pi-agent)' (pi, pi-agent) is not available on PATH.",
         "el agente 'Pi Agent (pi-agent)' (pi, pi-agent) no está disponible en el PATH."),
    ],
)
def test_every_agent_names_itself_and_its_binary(
    fake_agents: FakeAgents, lang: str, provider: str, en: str, es: str
) -> None:
    error = launch_missing(provider, fake_agents)
    assert error.message == {"en": en, "es": es}[lang]
    assert error.details["install_hint"] == get_driver(provider).install_hint()
    assert error.hint == {"en": "Install: ", "es": "Instalación: "}[lang] + error.details[
        "install_hint"]
