"""The new-session form and the update screen pinned as pictures at 80x24 and 120x40.

Nothing in them depends on the machine or the clock: the agents are fake scripts whose
paths are not shown (a missing agent is highlighted, so the line below the list is its
install hint), the profiles are the test's own, and the running version is 1.0.0.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

import gzia._version
from gzia.i18n import set_language
from gzia.profiles.catalog import create_profile, locations
from gzia.sandbox.probe import forget_sandbox_support
from gzia.tui.app import GzApp
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.manifests import manifest_document, publish_forgejo, publish_nexus
from tests.fakes.nexus import NexusFake
from tests.supervisor.conftest import notes
from tests.tui.forms_kit import project_app, with_fake_agents
from tests.update.conftest import (
    INSTALLED,
    forgejo_env,
    keys_env,
    nexus_env,
    releases,
    signed,
    target,
)

__all__ = ["keys_env", "notes", "releases", "signed", "target"]

SIZES = [(80, 24), (120, 40)]
Snap = Callable[..., bool]


def settled_after(*keys: str) -> Callable[[Pilot[None]], Any]:
    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.app.workers.wait_for_complete()
        for name in keys:
            await pilot.press(name)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
    return run_before


@pytest.fixture
def lang() -> str:
    """The language of the app's texts, key labels included (fixed when it is built)."""
    return "en"


@pytest.fixture(autouse=True)
def fresh_probe() -> Iterator[None]:
    """bwrap probed on each test's PATH (the probe is cached per process)."""
    forget_sandbox_support()
    yield
    forget_sandbox_support()


@pytest.fixture
def form_app(tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> GzApp:
    with_fake_agents(tmp_path / "bin", notes, monkeypatch)
    bwrap = tmp_path / "bin" / "bwrap"  # a sandbox can be made, whatever the machine has
    bwrap.write_text("#!/bin/sh\nexit 0\n")
    bwrap.chmod(0o755)
    set_language(lang)
    app = project_app(tmp_path / "project")
    project = app.tui_context.store.project
    for name in ("backend", "docs"):
        create_profile(locations(project.root), name, f"{name} work", global_scope=False)
    return app


@pytest.fixture
def published(nexus: NexusFake, releases: Callable[..., dict[str, bytes]]) -> NexusFake:
    nexus.publish(releases("2.0.0"), "2.0.0")
    return nexus


@pytest.fixture
def update_env(keys_env: dict[str, str], published: NexusFake) -> dict[str, str]:
    """The trusted key and the fake Nexus as the update source."""
    return {**keys_env, **nexus_env(published)}


@pytest.fixture
def update_app(tmp_path: Path, target: Path, update_env: dict[str, str],
               monkeypatch: pytest.MonkeyPatch, lang: str) -> GzApp:
    monkeypatch.setattr(sys, "argv", [str(target)])
    monkeypatch.setattr(gzia._version, "__version__", INSTALLED)
    for name, value in update_env.items():
        monkeypatch.setenv(name, value)
    set_language(lang)
    return project_app(tmp_path / "project")


@pytest.mark.parametrize("size", SIZES)
def test_new_session_form(snap_compare: Snap, form_app: GzApp, size: tuple[int, int]) -> None:
    assert snap_compare(form_app, terminal_size=size, run_before=settled_after("n", "down"))


@pytest.mark.parametrize("lang", ["es"])
def test_new_session_form_in_spanish(snap_compare: Snap, form_app: GzApp) -> None:
    assert snap_compare(form_app, terminal_size=(80, 24),
                        run_before=settled_after("n", "down"))


@pytest.mark.parametrize("size", SIZES)
def test_update_screen_after_the_check(snap_compare: Snap, update_app: GzApp,
                                       size: tuple[int, int]) -> None:
    assert snap_compare(update_app, terminal_size=size, run_before=settled_after("u"))


def test_update_screen_with_the_channels_warnings(  # noqa: PLR0917 - pytest fixtures
        snap_compare: Snap, update_app: GzApp, published: NexusFake, forgejo: ForgejoFake,
        releases: Callable[..., dict[str, bytes]], signed: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nexus's manifest expired (refused), Forgejo's yanks the running 1.0.0 and asks for
    1.2.0 at least: the warnings above, the channel's lines between the versions."""
    published.publish(releases("1.5.0"), "1.5.0")
    publish_nexus(published, "stable", *signed(manifest_document(
        version="1.5.0", expires="2020-01-01T00:00:00+00:00")))
    publish_forgejo(forgejo, "stable", 2, *signed(manifest_document(
        version="1.5.0", serial=2, minimum_version="1.2.0",
        yanked=[{"version": "1.0.0", "reason": "corrupts session records"}])))
    for name, value in forgejo_env(forgejo).items():
        monkeypatch.setenv(name, value)
    assert snap_compare(update_app, terminal_size=(80, 24), run_before=settled_after("u"))


@pytest.mark.parametrize("lang", ["es"])
def test_update_confirmation_in_spanish(snap_compare: Snap, update_app: GzApp) -> None:
    assert snap_compare(update_app, terminal_size=(80, 24),
                        run_before=settled_after("u", "u"))


def test_a_focused_radio_row_shows_the_choice(snap_compare: Snap, form_app: GzApp) -> None:
    """Tab to Permission, → : one line (not an empty box), "autonomous" taken and shown."""
    assert snap_compare(form_app, terminal_size=(80, 24),
                        run_before=settled_after("n", "down", "tab", "right"))
