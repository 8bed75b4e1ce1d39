"""``gz-ia drivers``: the whole listing, as JSON and as text, in both languages."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.drivers.status import PROBE_GRACE
from tests.conftest import Result
from tests.drivers.driver_fakes import DRIVER_CODE, FakeAgents, pid_alive, write_plugin

HINTS = {
    "en": {
        "agy": "Install the Google Antigravity CLI following the official instructions.",
        "pi-agent": "npm install -g @mariozechner/pi-coding-agent",
    },
    "es": {
        "agy": "Instala Google Antigravity CLI siguiendo las instrucciones oficiales.",
        "pi-agent": "npm install -g @mariozechner/pi-coding-agent",
    },
}
CLAUDE_HINT = "npm install -g @anthropic-ai/claude-code"
OPENCODE_HINT = "curl -fsSL https://opencode.ai/install | bash"


HOOKED = frozenset({"claude", "opencode"})
"""The drivers whose agents report their state through hooks (the others: the detector)."""


def entry(id_: str, name: str, binary: str, mcp: str, hint: str | None, *,
          path: str | None = None, version: str | None = None) -> dict[str, Any]:
    return {"id": id_, "name": name, "binary": binary, "path": path,
            "available": path is not None, "version": version, "install_hint": hint,
            "mcp_support": mcp, "state_method": "hooks" if id_ in HOOKED else "detector"}


Cli = Callable[..., Result]


def run_drivers(cli: Cli, *args: str) -> tuple[int, str, str]:
    result = cli("drivers", *args)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def agent_path(fake_agents: FakeAgents, monkeypatch: pytest.MonkeyPatch) -> FakeAgents:
    """gz-ia's own environment: the fake bin directory as the whole PATH, SHELL=/bin/sh."""
    for name, value in fake_agents.env(SHELL="/bin/sh").items():
        monkeypatch.setenv(name, value)
    return fake_agents


def test_json_on_a_machine_without_agents(
    agent_path: FakeAgents, lang: str, cli: Cli
) -> None:
    code, out, err = run_drivers(cli, "--json")
    assert (code, err) == (0, "")
    hints = HINTS[lang]
    assert json.loads(out) == {"ok": True, "errors": [], "warnings": [], "data": {"drivers": [
        entry("agy", "Google Antigravity (agy)", "agy", "none", hints["agy"]),
        entry("claude", "Claude Code (claude)", "claude", "flag", CLAUDE_HINT),
        entry("opencode", "OpenCode (opencode)", "opencode", "env", OPENCODE_HINT),
        entry("pi-agent", "Pi Agent (pi-agent)", "pi", "none", hints["pi-agent"]),
        entry("shell", "Shell (shell)", "sh", "none", None, path="/bin/sh"),
    ]}}


def test_json_with_agents_installed(
    agent_path: FakeAgents, cli: Cli
) -> None:
    claude = agent_path.install("claude")
    pi = agent_path.install("pi")
    code, out, _ = run_drivers(cli, "--json")
    drivers = {d["id"]: d for d in json.loads(out)["data"]["drivers"]}
    assert code == 0
    assert drivers["claude"] == entry("claude", "Claude Code (claude)", "claude", "flag",
                                      CLAUDE_HINT, path=str(claude), version="2.1.197")
    assert drivers["pi-agent"] == entry("pi-agent", "Pi Agent (pi-agent)", "pi", "none",
                                        HINTS["en"]["pi-agent"], path=str(pi), version="0.73.1")


def test_human_listing(agent_path: FakeAgents, lang: str,
                       cli: Cli) -> None:
    agent_path.install("claude")
    code, out, err = run_drivers(cli)
    assert (code, err) == (0, "")
    assert out == {
        "en": (
            "ID        NAME                      STATUS     STATE     VERSION\n"
            "agy       Google Antigravity (agy)  missing    detector  -\n"
            "claude    Claude Code (claude)      available  hooks     2.1.197\n"
            "opencode  OpenCode (opencode)       missing    hooks     -\n"
            "pi-agent  Pi Agent (pi-agent)       missing    detector  -\n"
            "shell     Shell (shell)             available  detector  -\n"
            "\n"
            "To install the missing agents:\n"
            f"  agy: {HINTS['en']['agy']}\n"
            f"  opencode: {OPENCODE_HINT}\n"
            f"  pi-agent: {HINTS['en']['pi-agent']}\n"
        ),
        "es": (
            "ID        NOMBRE                    ESTADO         SITUACIÓN  VERSIÓN\n"
            "agy       Google Antigravity (agy)  no encontrado  detector   -\n"
            "claude    Claude Code (claude)      disponible     hooks      2.1.197\n"
            "opencode  OpenCode (opencode)       no encontrado  hooks      -\n"
            "pi-agent  Pi Agent (pi-agent)       no encontrado  detector   -\n"
            "shell     Shell (shell)             disponible     detector   -\n"
            "\n"
            "Para instalar los agentes que faltan:\n"
            f"  agy: {HINTS['es']['agy']}\n"
            f"  opencode: {OPENCODE_HINT}\n"
            f"  pi-agent: {HINTS['es']['pi-agent']}\n"
        ),
    }[lang]


NOT_ANSWERING = {
    "en": "agent '{name}' did not answer '--version' within {seconds} s: its version is unknown",
    "es": "el agente '{name}' no respondió a '--version' en {seconds} s: su versión es "
          "desconocida",
}


def not_answering(lang: str, name: str, id_: str, seconds: float) -> dict[str, Any]:
    return {"code": "DRIVER_NOT_ANSWERING", "retryable": False, "hint": None,
            "message": NOT_ANSWERING[lang].format(name=name, seconds=f"{seconds:g}"),
            "details": {"id": id_, "seconds": seconds}}


def test_a_hanging_agent_does_not_hang_the_listing(
    agent_path: FakeAgents, lang: str, cli: Cli
) -> None:
    """An agent that never answers ``--version`` is killed with its group at the 3 s
    deadline and named in a warning."""
    agy = agent_path.install("agy", version_mode="hang")
    started = time.monotonic()
    code, out, _ = run_drivers(cli, "--json")
    elapsed = time.monotonic() - started
    document = json.loads(out)
    assert code == 0 and 3 <= elapsed < 3 + PROBE_GRACE
    assert document["data"]["drivers"][0] == entry(
        "agy", "Google Antigravity (agy)", "agy", "none", HINTS[lang]["agy"], path=str(agy))
    assert document["warnings"] == [not_answering(lang, "Google Antigravity (agy)", "agy", 3)]
    assert not pid_alive(int(agent_path.pid_file.read_text()))


def test_the_listing_ends_even_when_a_probe_ignores_its_deadline(
    agent_path: FakeAgents, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
    cli: Cli,
) -> None:
    """A third-party driver whose probe never returns (as a program stuck before ``exec``
    would leave it) is given up once the deadline and its grace are over."""
    from gzia.drivers import status

    monkeypatch.setattr(status, "PROBE_TIMEOUT", 0.5)
    monkeypatch.setattr(status, "PROBE_GRACE", 0.5)
    site = tmp_path / "site"
    site.mkdir()
    write_plugin(site, "gzia-test-stubborn", {"stubborn": "gzia_test_stubborn:Stubborn"},
                 "gzia_test_stubborn", STUBBORN_DRIVER)
    monkeypatch.syspath_prepend(str(site))
    binary = agent_path.install("stubborn-agent")
    try:
        started = time.monotonic()
        code, out, err = run_drivers(cli, "--json")
        elapsed = time.monotonic() - started
    finally:
        sys.modules.pop("gzia_test_stubborn").RELEASE.set()  # the probe's thread ends
    document = json.loads(out)
    assert (code, err) == (0, "") and elapsed < 1.0 + 1.0
    assert document["data"]["drivers"][-1] == entry(
        "stubborn", "Stubborn Agent (stubborn)", "stubborn-agent", "none", None,
        path=str(binary))
    assert document["warnings"] == [
        not_answering(lang, "Stubborn Agent (stubborn)", "stubborn", 0.5)]


STUBBORN_DRIVER = """
    import threading

    from gzia.drivers import ExecutableDriver

    RELEASE = threading.Event()

    class Stubborn(ExecutableDriver):
        id = "stubborn"
        display_name = "Stubborn Agent (stubborn)"
        binary = "stubborn-agent"

        def probe_version(self, env, timeout=3.0):
            RELEASE.wait(60)
            return "never seen"
"""


def test_broken_driver_plugins_are_warnings(
    agent_path: FakeAgents, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_plugin(site, "gzia-test-drivers", {
        "good": "gzia_test_drivers:Good", "exploding": "gzia_test_drivers:Exploding"},
        "gzia_test_drivers", DRIVER_CODE)
    monkeypatch.syspath_prepend(str(site))
    code, out, _ = run_drivers(cli, "--json")
    document = json.loads(out)
    assert code == 0
    assert [d["id"] for d in document["data"]["drivers"]][-1] == "good"
    assert [(w["code"], w["details"]["name"], w["details"]["error"])
            for w in document["warnings"]] == [
        ("PLUGIN_FAILED", "exploding", "RuntimeError: cannot start")]
