"""The new-session form's sandbox row, driven by Textual's pilot against a real git
repository and the machine's real bubblewrap: it starts at the ``sandbox`` setting, its
choice reaches the session as ``--sandbox`` does, and it cannot be changed (saying why)
when the administrator's policy requires the sandbox or this machine cannot make one."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import OptionList, RadioButton, RadioSet

from gzia.i18n import set_language
from gzia.sandbox.probe import forget_sandbox_support
from gzia.sessions.sandbox_choice import sandbox_for, sandbox_offer
from gzia.tui.app import GzApp
from gzia.tui.sandbox_choice import why_locked
from tests.background.conftest import wait_final
from tests.supervisor.conftest import notes
from tests.tui.forms_kit import open_form, project_app, records, shown, with_fake_agents

__all__ = ["notes"]

pytestmark = pytest.mark.anyio
SHELL_ROW = 4
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is needed")


@pytest.fixture(autouse=True)
def fresh_probe() -> Iterator[None]:
    """Each test probes bwrap on its own PATH (the probe is cached per process)."""
    forget_sandbox_support()
    yield
    forget_sandbox_support()
    set_language(None)


@pytest.fixture
def app(tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch) -> GzApp:
    monkeypatch.delenv("GZ_SANDBOX", raising=False)
    monkeypatch.delenv("GZ_POLICY_FILE", raising=False)
    with_fake_agents(tmp_path / "agents", notes, monkeypatch)
    set_language("en")
    return project_app(tmp_path / "project")


def row(app: GzApp) -> RadioSet:
    return app.screen.query_one("#sandbox", RadioSet)


def chosen(app: GzApp) -> str:
    pressed = row(app).pressed_button
    return str(pressed.id if pressed else None)


async def start_in_background(app: GzApp, pilot: object) -> dict[str, object]:
    """The shell, running ``true`` in the background; its record once it has ended."""
    app.screen.query_one("#agents", OptionList).highlighted = SHELL_ROW
    app.screen.query_one("#background", RadioButton).value = True
    app.screen.query_one("#prompt").insert("true")  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")  # type: ignore[attr-defined]
    for _ in range(2):  # the start, then the list's reload
        await app.workers.wait_for_complete()
    [record] = records(app)
    return wait_final(app.tui_context.store.project.root, str(record["id"]))


@needs_bwrap
@pytest.mark.parametrize(("setting", "first", "then"), [("", "sandbox-off", "sandbox-on"),
                                                        ("1", "sandbox-on", "sandbox-off")])
async def test_the_row_starts_at_the_setting_and_the_choice_reaches_the_session(
        app: GzApp, monkeypatch: pytest.MonkeyPatch, setting: str, first: str,
        then: str) -> None:
    monkeypatch.setenv("GZ_SANDBOX", setting)
    async with app.run_test(size=(100, 34)) as pilot:
        await open_form(pilot, app)
        assert (chosen(app), row(app).disabled, shown(app, "#sandbox-detail")) == (
            first, False, "")
        row(app).focus()
        await pilot.press("right" if first == "sandbox-off" else "left")
        assert chosen(app) == then
        record = await start_in_background(app, pilot)
    assert record["status"] == "completed"
    assert (record.get("sandbox") is not None) == (then == "sandbox-on")


@needs_bwrap
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_policy_that_requires_the_sandbox_locks_the_row_on(
        app: GzApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text("sandbox = true\n")
    monkeypatch.setenv("GZ_POLICY_FILE", str(policy))
    monkeypatch.setenv("GZ_SANDBOX", "0")  # the policy beats the user's own setting
    set_language(lang)
    async with app.run_test(size=(100, 34)) as pilot:
        await open_form(pilot, app)
        assert (chosen(app), row(app).disabled) == ("sandbox-on", True)
        said = {"en": f"required by the administrator's policy ({policy})",
                "es": f"lo exige la política del administrador ({policy})"}[lang]
        assert shown(app, "#sandbox-detail") == said
        record = await start_in_background(app, pilot)
    assert record["sandbox"] is not None
    assert sandbox_for(False) is True  # a choice of "off" cannot lift it


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_bwrap_that_cannot_make_a_sandbox_locks_the_row_and_says_why(
        app: GzApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """A bwrap that fails as one does without user namespaces (first on PATH)."""
    fake = tmp_path / "agents" / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    set_language(lang)
    async with app.run_test(size=(100, 34)) as pilot:
        await open_form(pilot, app)
        assert (chosen(app), row(app).disabled) == ("sandbox-off", True)
        said = {"en": ["no sandbox here: bubblewrap cannot create one (bwrap: No permissions "
                       "to create new namespace)", "'gz-ia doctor' checks it"],
                "es": ["aquí no hay sandbox: bubblewrap no puede crear uno (bwrap: No "
                       "permissions to create new namespace)", "'gz-ia doctor' lo comprueba"]}
        assert shown(app, "#sandbox-detail").splitlines() == said[lang]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_without_bwrap_the_row_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("GZ_SANDBOX", "1")
    monkeypatch.delenv("GZ_POLICY_FILE", raising=False)
    set_language(lang)
    offer = sandbox_offer()
    install = {"en": "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: "
                     "dnf install bubblewrap)",
               "es": "instala bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: "
                     "dnf install bubblewrap)"}[lang]
    said = {"en": "no sandbox here: bubblewrap (bwrap) is not installed",
            "es": "aquí no hay sandbox: bubblewrap (bwrap) no está instalado"}[lang]
    assert (offer.on, offer.locked, why_locked(offer)) == (True, True, [said, install])
    # on, as the setting says: a start is refused, as --sandbox's is, never run unsandboxed
