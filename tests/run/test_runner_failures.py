"""The runner when the agent never starts: the record never stays ``running``."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import InterruptError, IOFailure, NotFoundError, Permission, TerminatedError
from gzia.drivers.base import LaunchRequest, LaunchSpec
from gzia.sessions.run import SessionRequest, start_session
from gzia.supervisor.watchdog import Watchdog
from tests.run.conftest import stored_record


class ScriptedDriver:
    """A driver whose launch answers are chosen by the test (drivers are a protocol)."""

    id = "scripted"
    display_name = "Scripted (scripted)"
    binary = "scripted"
    mcp_support = "none"

    def __init__(self, argv: list[str], on_second_launch: Any = None) -> None:
        self.argv = argv
        self.launches = 0
        self.on_second_launch = on_second_launch

    def install_hint(self) -> str:
        return ""

    def resolve(self, env: Mapping[str, str]) -> str | None:
        return self.argv[0]

    def probe_version(self, env: Mapping[str, str], timeout: float = 3.0) -> str | None:
        return None

    def new_conversation_id(self) -> str | None:
        return None

    def launch(self, request: LaunchRequest) -> LaunchSpec:
        self.launches += 1
        if self.launches == 2 and self.on_second_launch is not None:
            self.on_second_launch()
        return LaunchSpec(list(self.argv), dict(request.env))


def only_record(repo: Path) -> dict[str, Any]:
    (record,) = (repo / ".harness" / "sessions").glob("*.json")
    return stored_record(repo, record.stem)


def test_an_agent_that_cannot_be_executed_leaves_a_failed_record(repo: Path, tmp_path: Path):
    not_executable = tmp_path / "agent"
    not_executable.write_text("#!/bin/sh\n")
    driver = ScriptedDriver([str(not_executable)])

    with pytest.raises(IOFailure) as error:
        start_session(SessionRequest(repo, driver, Permission.SUPERVISED), watchdog=Watchdog())

    record = only_record(repo)
    assert (record["status"], record["end_reason"], record["pid"]) == ("failed", "spawn_failed", 0)
    assert error.value.data == record


def test_sigterm_before_the_agent_starts_cancels_the_session(repo: Path, tmp_path: Path):
    marker = tmp_path / "started"
    driver = ScriptedDriver(["/bin/sh", "-c", f"touch {marker}"],
                            on_second_launch=lambda: os.kill(os.getpid(), signal.SIGTERM))

    with pytest.raises(TerminatedError) as error:
        start_session(SessionRequest(repo, driver, Permission.SUPERVISED), watchdog=Watchdog())

    record = only_record(repo)
    assert (record["status"], record["end_reason"], record["pid"]) == ("killed", "canceled", 0)
    assert error.value.data == record
    assert not marker.exists()  # the agent was never started


def test_ctrl_c_before_the_inbox_is_installed_still_returns_the_record(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """KeyboardInterrupt right after the record is written becomes INTERRUPTED with data."""
    from gzia.sessions.run import runner

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "log_lifecycle_event", interrupted)
    driver = ScriptedDriver(["/bin/sh", "-c", "true"])

    with pytest.raises(InterruptError) as error:
        start_session(SessionRequest(repo, driver, Permission.SUPERVISED), watchdog=Watchdog())

    record = only_record(repo)
    assert (record["status"], record["end_reason"], record["pid"]) == ("killed", "canceled", 0)
    assert error.value.data == record


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "executable '{path}' no longer exists"),
    ("es", "el ejecutable '{path}' ya no existe"),
])
def test_an_agent_binary_removed_after_the_lookup_leaves_a_failed_record(
    repo: Path, tmp_path: Path, lang: str, message: str
):
    from gzia.i18n import set_language

    binary = tmp_path / "agent"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    driver = ScriptedDriver([str(binary)], on_second_launch=binary.unlink)

    set_language(lang)
    try:
        with pytest.raises(NotFoundError) as error:
            start_session(SessionRequest(repo, driver, Permission.SUPERVISED),
                          watchdog=Watchdog())
        assert error.value.message == message.format(path=binary)
    finally:
        set_language(None)
    record = only_record(repo)
    assert (record["status"], record["end_reason"], record["pid"]) == ("failed", "spawn_failed", 0)
    assert error.value.data == record
