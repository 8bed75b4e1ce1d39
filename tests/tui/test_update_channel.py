"""The update screen and the channel manifest, against the fake Nexus and Forgejo on
127.0.0.1: the screen shows what ``gz-ia update --check`` and ``update`` say (a manifest
refused or missing, the running version yanked, below the channel's minimum, the rollout
wait), in the CLI's words, and installs only what ``gz-ia update`` installs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.i18n import set_language
from gzia.tui.app import GzApp
from tests.conftest import Result
from tests.fakes.fixtures import *  # noqa: F403
from tests.fakes.forgejo import ForgejoFake
from tests.fakes.manifests import in_days, manifest_document, publish_forgejo, publish_nexus
from tests.fakes.nexus import NexusFake
from tests.tui.forms_kit import shown
from tests.tui.test_update_screen import app, install_enabled, open_update, settle, sources
from tests.update.conftest import (
    forgejo_env,
    keys_env,
    nexus_env,
    pyz_reports,
    releases,
    signed,
    target,
    update_cli,
)

__all__ = ["app", "keys_env", "releases", "signed", "target", "update_cli"]

Releases = Callable[..., dict[str, bytes]]

ENGLISH = [
    "Warning: Nexus: the channel manifest was not used: it expired on 2020-01-01T00:00:00Z",
    "Warning: v1.0.0 was yanked from channel stable: corrupts session records; "
    "'gz-ia update' moves to v1.5.0",
    "✧ Channel stable (manifest 2 from forgejo): this machine gets v1.5.0: not yet in the 0% "
    "rollout of v2.0.0 (bucket {bucket}; --ignore-rollout takes it now)",
    "! v1.0.0 is below v1.2.0, the minimum version channel stable supports",
]
SPANISH = [
    "Aviso: Nexus: no se usó el manifiesto del canal: caducó el 2020-01-01T00:00:00Z",
    "Aviso: v1.0.0 fue retirada del canal stable: corrupts session records; 'gz-ia update' "
    "pasa a v1.5.0",
]


def refused_then_yanked(nexus: NexusFake, forgejo: ForgejoFake, releases: Releases,
                        signed: Any) -> dict[str, str]:
    """Releases 1.5.0 and 2.0.0; Nexus serves an expired manifest (refused), Forgejo one that
    yanks the running 1.0.0, asks for 1.2.0 at least and rolls 2.0.0 out to nobody yet."""
    for version in ("1.5.0", "2.0.0"):
        nexus.publish(releases(version), version)
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.5.0", expires="2020-01-01T00:00:00+00:00")))
    publish_forgejo(forgejo, "stable", 2, *signed(manifest_document(
        version="1.5.0", serial=2, minimum_version="1.2.0",
        rollout={"version": "2.0.0", "percentage": 0},
        yanked=[{"version": "1.0.0", "reason": "corrupts session records"}])))
    return {**nexus_env(nexus), **forgejo_env(forgejo)}


@pytest.mark.anyio
@pytest.mark.parametrize(("lang", "words"), [("en", ENGLISH), ("es", SPANISH)])
async def test_the_check_shows_the_clis_channel_warnings_and_lines(  # noqa: PLR0917 - pytest fixtures
        app: GzApp, nexus: NexusFake, forgejo: ForgejoFake, releases: Releases, signed: Any,
        update_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, lang: str,
        words: list[str]) -> None:
    env = refused_then_yanked(nexus, forgejo, releases, signed)
    cli = update_cli("update", "--check", env={**env, "GZ_LANG": lang})
    assert cli.exit_code == 0, cli.stderr
    bucket = update_cli("update", "--check", "--json", env=env).json["data"]["target"]["bucket"]
    sources(monkeypatch, env)
    set_language(lang)
    async with app.run_test(size=(120, 30)) as pilot:
        await open_update(pilot, app)
        warnings, channel = shown(app, "#warnings"), shown(app, "#channel")
        assert install_enabled(app)  # 1.5.0, the channel's version, as 'gz-ia update' takes
    assert f"{warnings}\n" == cli.stderr  # the same warnings, in the same words and order
    assert channel.splitlines() == [line for line in cli.stdout.splitlines()
                                    if line.startswith(("✧ Canal", "✧ Channel", "!"))]
    assert len(channel.splitlines()) == 2
    expected = [line.format(bucket=bucket) for line in words]
    assert [*warnings.splitlines(), *channel.splitlines()][:len(expected)] == expected


def pinned_then_removed(nexus: NexusFake, releases: Releases, signed: Any,
                        update_cli: Callable[..., Result]) -> tuple[dict[str, str], str]:
    """Releases 1.5.0 and 3.0.0, the channel pinned at 1.5.0 (serial 4) and seen once by
    this machine, then the manifest removed."""
    for version in ("1.5.0", "3.0.0"):
        nexus.publish(releases(version), version)
    expires = in_days(2)
    publish_nexus(nexus, "stable", *signed(manifest_document(version="1.5.0", serial=4,
                                                             expires=expires)))
    env = nexus_env(nexus)
    assert update_cli("update", "--check", env=env).exit_code == 0
    for name in [n for n in nexus.repos["gz-ia"] if n.startswith("gz-ia/channels/")]:
        del nexus.repos["gz-ia"][name]
    return env, expires


MISSING = {
    "en": "Warning: no source gave a usable manifest of channel stable: following the one "
          "verified here before (serial 4, until {expires})",
    "es": "Aviso: ninguna fuente dio un manifiesto utilizable del canal stable: se sigue el "
          "verificado antes aquí (número de serie 4, hasta {expires})",
}


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_missing_manifest_is_said_and_the_install_follows_the_cached_one(  # noqa: PLR0917 - pytest fixtures
        app: GzApp, nexus: NexusFake, releases: Releases, signed: Any, target: Path,
        update_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    env, expires = pinned_then_removed(nexus, releases, signed, update_cli)
    missing = MISSING[lang]
    cli = update_cli("update", "--check", env={**env, "GZ_LANG": lang})
    sources(monkeypatch, env)
    set_language(lang)
    async with app.run_test(size=(120, 30)) as pilot:
        await open_update(pilot, app)
        assert f"{shown(app, '#warnings')}\n" == cli.stderr
        assert shown(app, "#warnings") == missing.format(expires=expires)
        await pilot.press("u", "y")
        await settle(pilot, app)
        assert shown(app, "#warnings") == missing.format(expires=expires)  # as 'update' says
    assert pyz_reports(target) == "gz-ia 1.5.0"  # never the newest, 3.0.0


LEAVE_THE_YANK = {
    "en": "Leave the yanked v1.0.0 for v0.9.0, the version of channel stable? Download and "
          "install it now?",
    "es": "¿Dejar la v1.0.0 retirada por la v0.9.0, la versión del canal stable? ¿Deseas "
          "descargarla e instalarla ahora?",
}

CHECK_VERDICT = {
    "en": "⚡ An update is available: v0.9.0, the version of channel stable, replaces the "
          "yanked v1.0.0 (an older version). Run 'gz-ia update' to install it.",
    "es": "⚡ Hay una actualización disponible: v0.9.0, la versión del canal stable, sustituye "
          "a la v1.0.0 retirada (es una versión anterior). Ejecuta 'gz-ia update' para "
          "instalarla.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_cli_check_says_what_the_screen_says_of_a_yanked_version(
        nexus: NexusFake, releases: Releases, signed: Any, update_cli: Any,
        lang: str) -> None:
    """The verdict the screen shows below is 'gz-ia update --check''s last line."""
    nexus.publish(releases("0.9.0"), "0.9.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="0.9.0", yanked=[{"version": "1.0.0", "reason": "corrupts session records"}])))
    check = update_cli("update", "--check", env={**nexus_env(nexus), "GZ_LANG": lang})
    assert check.stdout.splitlines()[-1] == CHECK_VERDICT[lang]


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_yanked_running_version_can_leave_for_an_older_channel_version(  # noqa: PLR0917 - pytest fixtures
        app: GzApp, nexus: NexusFake, releases: Releases, signed: Any, target: Path,
        monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """'gz-ia update' moves off a yanked version even to an older one: so does the screen,
    where the install key was greyed out (nothing newer) while the warning said to update."""
    for version in ("0.9.0", "2.0.0"):
        nexus.publish(releases(version), version)
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="0.9.0", yanked=[{"version": "1.0.0", "reason": "corrupts session records"}])))
    sources(monkeypatch, nexus_env(nexus))
    set_language(lang)
    async with app.run_test(size=(120, 30)) as pilot:
        await open_update(pilot, app)
        assert shown(app, "#verdict") == CHECK_VERDICT[lang]  # update --check's own line
        assert install_enabled(app)
        await pilot.press("u")
        assert type(app.screen).__name__ == "ConfirmScreen"
        assert shown(app, ".dialog-title") == LEAVE_THE_YANK[lang]
        await pilot.press("y")
        await settle(pilot, app)
    assert pyz_reports(target) == "gz-ia 0.9.0"


@pytest.mark.anyio
async def test_a_channel_that_holds_the_machine_back_offers_no_install(
        app: GzApp, nexus: NexusFake, releases: Releases, signed: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pinned at the running version, with 2.0.0 published and rolled out to nobody yet:
    'gz-ia update' installs nothing, and the screen offers nothing to install."""
    for version in ("1.0.0", "2.0.0"):
        nexus.publish(releases(version), version)
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="1.0.0", rollout={"version": "2.0.0", "percentage": 0})))
    sources(monkeypatch, nexus_env(nexus))
    async with app.run_test(size=(120, 30)) as pilot:
        await open_update(pilot, app)
        assert shown(app, "#channel").startswith(
            "✧ Channel stable (manifest 1 from nexus): this machine gets v1.0.0: not yet in the "
            "0% rollout of v2.0.0")
        assert shown(app, "#verdict") == "✓ gz-ia is already at the latest version (v1.0.0)"
        assert not install_enabled(app)
