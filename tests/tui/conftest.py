"""Fixtures for the terminal UI's tests: real git repositories, real background sessions
started by gz-ia itself, and the app driven by Textual's pilot (on asyncio, through
anyio's pytest plugin)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from gzia.i18n import set_language
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from gzia.tui.app import GzApp
from gzia.tui.context import TuiContext
from tests.background.conftest import no_holder_left, start_background
from tests.conftest import Result
from tests.run.conftest import agent, bin_dir, gz, gz_start, repo, run_env
from tests.supervisor.conftest import notes

__all__ = ["agent", "bin_dir", "gz", "gz_start", "no_holder_left", "notes", "repo", "run_env"]

Gz = Callable[..., Result]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def the_test_process_is_gz_ia(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app runs inside pytest here. It owns a session it starts until the session's
    holder or agent takes over, and its own refresh reconciles the records meanwhile: a
    process not named gz-ia (gz-ia, gz-ia.pyz, python -m gzia) is not taken for the owner,
    so the session being set up was marked lost (a start that took longer, sandboxed or
    on a loaded machine, lost the race)."""
    from gzia.sessions import reconcile

    monkeypatch.setattr(reconcile, "GZ_IA_NAMES", (*reconcile.GZ_IA_NAMES, "pytest"))


@pytest.fixture
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language(None)


@pytest.fixture
def spanish() -> Iterator[None]:
    set_language("es")
    yield
    set_language(None)


def make_app(root: Path, *, clock: Callable[[], float] = time.time,
             refresh_s: float = 0.2) -> GzApp:
    store = SessionStore(find_project(root))
    return GzApp(TuiContext(store, clock=clock, refresh_s=refresh_s))


def background(gz: Gz, root: Path, script: str) -> str:
    """Start ``sh -c script`` as a background shell session; its id."""
    data: dict[str, Any] = start_background(gz, root, "sh", "-c", script)
    return str(data["id"])


async def until(pilot: Pilot[None], holds: Callable[[], bool], what: str,
                timeout: float = 20.0) -> None:
    """Let the app run until ``holds()``; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not holds():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await pilot.pause(0.05)


Step = Callable[[Pilot[None]], Awaitable[None]]
