"""Which drivers exist, the default provider, and bad providers or permissions."""

from __future__ import annotations

from pathlib import Path

import pytest

from gzia.contract import DriverNotFoundError, ExitCode, InvalidInputError, classify
from gzia.drivers import (
    Permission,
    default_provider,
    get_driver,
    load_catalog,
    load_drivers,
    parse_permission,
)
from gzia.i18n import gettext
from tests.drivers.driver_fakes import DRIVER_CODE, FakeAgents, write_plugin

BUILTINS = ["agy", "claude", "opencode", "pi-agent", "shell"]


def test_builtins_load_in_order_with_their_names() -> None:
    drivers = load_drivers()
    assert list(drivers) == BUILTINS
    assert [(d.id, d.display_name, d.binary) for d in drivers.values()] == [
        ("agy", "Google Antigravity (agy)", "agy"),
        ("claude", "Claude Code (claude)", "claude"),
        ("opencode", "OpenCode (opencode)", "opencode"),
        ("pi-agent", "Pi Agent (pi-agent)", "pi"),
        ("shell", "Shell (shell)", "sh"),
    ]


def test_install_hints_in_both_languages(lang: str) -> None:
    hints = {d.id: d.install_hint() for d in load_drivers().values()}
    assert hints == {
        "en": {
            "agy": "curl -fsSL https://antigravity.google/cli/install.sh | bash",
            "claude": "npm install -g @anthropic-ai/claude-code",
            "opencode": "curl -fsSL https://opencode.ai/install | bash",
            "pi-agent": "npm install -g @mariozechner/pi-coding-agent",
            "shell": "",
        },
        "es": {
            "agy": "curl -fsSL https://antigravity.google/cli/install.sh | bash",
            "claude": "npm install -g @anthropic-ai/claude-code",
            "opencode": "curl -fsSL https://opencode.ai/install | bash",
            "pi-agent": "npm install -g @mariozechner/pi-coding-agent",
            "shell": "",
        },
    }[lang]


def test_unknown_provider_is_a_usage_error_listing_the_valid_ones(lang: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        get_driver("codex")
    assert classify(caught.value) == (ExitCode.USAGE, "INVALID_INPUT")
    assert caught.value.details == {"provider": "codex", "valid": BUILTINS}
    assert caught.value.message == {
        "en": "unknown agent provider: 'codex' (valid: agy, claude, opencode, pi-agent, shell)",
        "es": "proveedor de agente desconocido: 'codex' "
              "(válidos: agy, claude, opencode, pi-agent, shell)",
    }[lang]


@pytest.mark.parametrize("value", ["readonly", "supervised", "autonomous"])
def test_permissions(value: str) -> None:
    assert parse_permission(value) is Permission(value)


def test_unknown_permission_is_a_usage_error(lang: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_permission("yolo")
    assert classify(caught.value) == (ExitCode.USAGE, "INVALID_INPUT")
    assert caught.value.details == {
        "permission": "yolo", "valid": ["readonly", "supervised", "autonomous"]}
    assert caught.value.message == {
        "en": "unknown permission level: 'yolo' (valid: readonly, supervised, autonomous)",
        "es": "nivel de permiso desconocido: 'yolo' (válidos: readonly, supervised, autonomous)",
    }[lang]


class TestDefaultProvider:
    def test_configured_value_wins(self, fake_agents: FakeAgents) -> None:
        fake_agents.install("claude")
        assert default_provider("pi-agent", fake_agents.env()) == "pi-agent"
        assert default_provider("shell", fake_agents.env()) == "shell"

    def test_configured_value_must_be_a_driver(self, fake_agents: FakeAgents) -> None:
        with pytest.raises(InvalidInputError):
            default_provider("codex", fake_agents.env())

    @pytest.mark.parametrize(
        ("installed", "expected"),
        [(["pi", "opencode", "claude", "agy"], "agy"), (["pi", "opencode", "claude"], "claude"),
         (["pi", "opencode"], "opencode"), (["pi"], "pi-agent")],
    )
    def test_first_available_in_preference_order(
        self, fake_agents: FakeAgents, installed: list[str], expected: str
    ) -> None:
        for binary in installed:
            fake_agents.install(binary)
        assert default_provider(None, fake_agents.env()) == expected
        assert default_provider("", fake_agents.env()) == expected

    def test_never_picks_shell_on_its_own(self, fake_agents: FakeAgents, lang: str) -> None:
        with pytest.raises(DriverNotFoundError) as caught:
            default_provider(None, fake_agents.env(SHELL="/bin/sh"))
        error = caught.value
        assert classify(error) == (ExitCode.FAILURE, "DRIVER_NOT_FOUND")
        assert error.details["providers"] == ["agy", "claude", "opencode", "pi-agent"]
        hints = error.details["install_hints"]
        assert hints["claude"] == "npm install -g @anthropic-ai/claude-code"
        assert (error.message, error.hint) == {
            "en": ("no agent found on PATH (looked for: agy, claude, opencode, pi-agent).",
                   "install one (see 'gz-ia drivers'), or use '--provider shell'"),
            "es": ("no se encontró ningún agente en el PATH "
                   "(buscados: agy, claude, opencode, pi-agent).",
                   "instala uno (mira 'gz-ia drivers') o usa '--provider shell'"),
        }[lang]


def test_a_broken_plugin_is_reported_and_hides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_agents: FakeAgents
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_plugin(site, "gzia-test-drivers", {
        "good": "gzia_test_drivers:Good", "misnamed": "gzia_test_drivers:Misnamed",
        "exploding": "gzia_test_drivers:Exploding", "bare": "gzia_test_drivers:not_a_driver",
        "missing": "gzia_test_drivers_gone:Driver", "claude": "gzia_test_drivers:Good",
    }, "gzia_test_drivers", DRIVER_CODE)
    monkeypatch.syspath_prepend(str(site))

    catalog = load_catalog()

    assert list(catalog.drivers) == [*BUILTINS, "good"]
    assert catalog.drivers["claude"].display_name == "Claude Code (claude)"
    failures = {f.info.name: f.error for f in catalog.failures}
    assert failures == {
        "claude": gettext("'{name}' in {group} is already provided by {owner}; {claimant} cannot "
                          "claim it",
                          name="claude", group="gzia.drivers", owner="gz-ia",
                          claimant="gzia-test-drivers"),
        "missing": "ModuleNotFoundError: No module named 'gzia_test_drivers_gone'",
        "bare": gettext("'{name}' does not provide a driver (missing: {missing})",
                        name="bare", missing=", ".join([
            "id", "display_name", "binary", "mcp_support", "install_hint", "resolve",
            "probe_version", "new_conversation_id", "launch"])),
        "exploding": "RuntimeError: cannot start",
        "misnamed": gettext("entry point '{name}' provides a driver whose id is '{driver_id}'",
                            name="misnamed", driver_id="something-else"),
    }
    good = catalog.drivers["good"]
    fake_agents.install("good-agent")
    assert good.resolve(fake_agents.env()) == str(fake_agents.bin / "good-agent")


def test_disabled_plugins_are_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_plugin(site, "gzia-test-drivers", {"good": "gzia_test_drivers:Good"},
                 "gzia_test_drivers", DRIVER_CODE)
    monkeypatch.syspath_prepend(str(site))
    assert "good" in load_drivers()
    monkeypatch.setenv("GZ_DISABLE_PLUGINS", "gzia-test-drivers")
    assert list(load_drivers()) == BUILTINS


def test_asking_for_a_driver_whose_plugin_failed_names_the_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_plugin(site, "gzia-test-drivers", {"exploding": "gzia_test_drivers:Exploding"},
                 "gzia_test_drivers", DRIVER_CODE)
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(DriverNotFoundError) as caught:
        get_driver("exploding")
    assert classify(caught.value) == (ExitCode.FAILURE, "DRIVER_NOT_FOUND")
    assert caught.value.details == {"provider": "exploding", "error": "RuntimeError: cannot start",
                                    "distribution": "gzia-test-drivers"}
    assert caught.value.message == {
        "en": "driver 'exploding' could not be loaded: RuntimeError: cannot start",
        "es": "no se pudo cargar el driver 'exploding': RuntimeError: cannot start",
    }[lang]
