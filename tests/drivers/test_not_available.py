"""An agent missing from PATH: exit 1, DRIVER_NOT_FOUND, the original's wording in Spanish."""

from __future__ import annotations

import pytest

from gzia.cli import output
from gzia.cli.runner import _fail
from gzia.contract import DriverNotFoundError, ExitCode, classify, problem_from
from gzia.drivers import LaunchRequest, Permission, get_driver
from tests.drivers.driver_fakes import FakeAgents

RENDERED = {
    "en": "Error: agent 'Claude Code (claude)' (claude) is not available on PATH.\n"
          "Install: npm install -g @anthropic-ai/claude-code\n",
    "es": "Error: el agente 'Claude Code (claude)' (claude) no está disponible en el PATH.\n"
          "Instalación: npm install -g @anthropic-ai/claude-code\n",
}


def launch_missing(provider: str, fake_agents: FakeAgents) -> DriverNotFoundError:
    request = LaunchRequest(fake_agents.root, Permission.SUPERVISED, "hi", None, False,
                            fake_agents.env())
    with pytest.raises(DriverNotFoundError) as caught:
        get_driver(provider).launch(request)
    return caught.value


def test_rendered_error(
    fake_agents: FakeAgents, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = launch_missing("claude", fake_agents)
    output.reset()
    assert _fail(error) == ExitCode.FAILURE
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", RENDERED[lang])


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
        ("agy", "agent 'Google Antigravity (agy)' (agy) is not available on PATH.",
         "el agente 'Google Antigravity (agy)' (agy) no está disponible en el PATH."),
        ("opencode", "agent 'OpenCode (opencode)' (opencode) is not available on PATH.",
         "el agente 'OpenCode (opencode)' (opencode) no está disponible en el PATH."),
        ("pi-agent", "agent 'Pi Agent (pi-agent)' (pi) is not available on PATH.",
         "el agente 'Pi Agent (pi-agent)' (pi) no está disponible en el PATH."),
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
