"""The update screen against the fake Nexus and Forgejo on 127.0.0.1: check, confirm,
install with progress, rollback, and errors in the CLI's own words."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import ProgressBar

import gzia._version
from gzia.i18n import set_language
from gzia.tui.app import GzApp
from tests.conftest import Result
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.tui.forms_kit import project_app, shown
from tests.update.conftest import (
    INSTALLED,
    forgejo_env,
    keys_env,
    nexus_env,
    pyz_reports,
    releases,
    target,
    update_cli,
)

__all__ = ["keys_env", "releases", "target", "update_cli"]


@pytest.fixture
def app(tmp_path: Path, target: Path, keys_env: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> GzApp:
    """The TUI as if run from ``target``, the installed zipapp at version 1.0.0."""
    monkeypatch.setattr(sys, "argv", [str(target)])
    monkeypatch.setattr(gzia._version, "__version__", INSTALLED)
    for name, value in keys_env.items():
        monkeypatch.setenv(name, value)
    return project_app(tmp_path / "project")


@pytest.fixture
def nexus_2(nexus: NexusFake, releases: Callable[..., dict[str, bytes]],
            monkeypatch: pytest.MonkeyPatch) -> NexusFake:
    """The fake Nexus publishing 2.0.0, configured as the update source."""
    nexus.publish(releases("2.0.0"), "2.0.0")
    sources(monkeypatch, nexus_env(nexus))
    return nexus


def sources(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)


async def settle(pilot: Pilot[None], app: GzApp) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_update(pilot: Pilot[None], app: GzApp) -> None:
    await settle(pilot, app)
    await pilot.press("u")
    await settle(pilot, app)
    assert type(app.screen).__name__ == "UpdateScreen"


def install_enabled(app: GzApp) -> bool:
    return app.screen.check_action("install", ()) is True


@pytest.mark.anyio
@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["❯ Current version: v1.0.0", "✧ Remote version: v2.0.0 (nexus)",
            "⚡ New version available: v1.0.0 -> v2.0.0 (Nexus)"]),
    ("es", ["❯ Versión actual: v1.0.0", "✧ Versión remota: v2.0.0 (nexus)",
            "⚡ Nueva versión disponible: v1.0.0 -> v2.0.0 (Nexus)"]),
])
async def test_the_check_shows_current_new_version_and_source(
        app: GzApp, nexus_2: NexusFake, target: Path, lang: str, lines: list[str]) -> None:
    set_language(lang)
    before = target.read_bytes()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        assert [shown(app, s) for s in ("#current", "#remote", "#verdict")] == lines
        assert install_enabled(app)
    assert target.read_bytes() == before
    assert not _downloads(nexus_2)  # a check downloads nothing


@pytest.mark.anyio
async def test_up_to_date_offers_no_install(
        app: GzApp, nexus: NexusFake, releases: Callable[..., dict[str, bytes]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    nexus.publish(releases("1.0.0"), "1.0.0")
    sources(monkeypatch, nexus_env(nexus))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        assert shown(app, "#verdict") == "✓ gz-ia is already at the latest version (v1.0.0)"
        assert not install_enabled(app)


@pytest.mark.anyio
async def test_install_after_confirming_then_roll_back(
        app: GzApp, nexus: NexusFake, releases: Callable[..., dict[str, bytes]],
        target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = releases("2.0.0")
    nexus.publish(files, "2.0.0")
    sources(monkeypatch, nexus_env(nexus))
    [size] = [len(data) for name, data in files.items() if name.endswith(".pyz")]
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        await pilot.press("u")
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("y")
        await settle(pilot, app)
        bar = app.screen.query_one("#progress", ProgressBar)
        assert (bar.progress, bar.total) == (size, size)  # the download, as it streamed
        assert shown(app, "#result") == (
            f"✓ gz-ia updated successfully to v2.0.0 in {target}\n"
            "Quit and start gz-ia again to run that version.")
        assert pyz_reports(target) == "gz-ia 2.0.0"
        assert nexus.server.requests_to("/repository/")  # downloaded
        await pilot.press("r")
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("y")
        await settle(pilot, app)
        assert shown(app, "#result") == (
            f"✓ gz-ia rolled back to v1.0.0 in {target}\n"
            "Quit and start gz-ia again to run that version.")
    assert pyz_reports(target) == "gz-ia 1.0.0"


@pytest.mark.anyio
async def test_declining_changes_nothing(app: GzApp, nexus_2: NexusFake,
                                         target: Path) -> None:
    before = target.read_bytes()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        await pilot.press("u", "n")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "UpdateScreen"
        assert shown(app, "#result") == ""
    assert target.read_bytes() == before
    assert not _downloads(nexus_2)


@pytest.mark.anyio
async def test_nexus_down_falls_back_to_forgejo_and_says_so(
        app: GzApp, nexus: NexusFake, forgejo: ForgejoFake,
        releases: Callable[..., dict[str, bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    forgejo.publish("v2.0.0", releases("2.0.0"))
    nexus.server.go_down()
    sources(monkeypatch, {**nexus_env(nexus), **forgejo_env(forgejo)})
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        warning = shown(app, "#warnings")
        assert warning.startswith(
            f"Warning: Nexus failed: cannot connect to 127.0.0.1:{nexus.server.port}: ")
        assert warning.endswith("; trying Forgejo")
        assert shown(app, "#verdict") == "⚡ New version available: v1.0.0 -> v2.0.0 (Forgejo)"


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_errors_read_as_the_clis(app: GzApp, dead_url: str,
                                       update_cli: Callable[..., Result],
                                       monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    env = {"GZ_NEXUS_SEARCH_URL": f"{dead_url}/service/rest/v1/search/assets?repository=x",
           "GZ_FORGEJO_API_URL": f"{dead_url}/api/v1/repos/ops/gz-ia/tags", "GZ_LANG": lang}
    cli = update_cli("update", "--check", env=env)
    assert cli.exit_code == 1
    sources(monkeypatch, env)
    set_language(None)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        screen_text = f"{shown(app, '#warnings')}\n{shown(app, '#result')}\n"
    assert screen_text == cli.stderr


@pytest.mark.anyio
async def test_not_running_from_a_zipapp_is_the_clis_error(
        app: GzApp, update_cli: Callable[..., Result], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "gz-ia"
    cli = update_cli("update", "rollback", argv0=script)
    assert cli.exit_code == 1
    monkeypatch.setattr(sys, "argv", [str(script)])
    async with app.run_test(size=(100, 30)) as pilot:
        await open_update(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert f"{shown(app, '#result')}\n" == cli.stderr


def _downloads(nexus: NexusFake) -> list[str]:
    """What was fetched from the raw repository, beside the channel manifest looked for."""
    assert nexus.server is not None
    return [r.path for r in nexus.server.requests_to("/repository/")
            if not r.path.startswith("/repository/gz-ia/gz-ia/channels/")]
