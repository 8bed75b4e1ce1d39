"""Version probes: the real number from real output, and never a hang."""

from __future__ import annotations

import time

import pytest

from gzia.contract import TimeoutFailure
from gzia.drivers import get_driver
from gzia.drivers.base import parse_version
from tests.drivers.driver_fakes import FakeAgents, pid_alive


@pytest.mark.parametrize(
    ("provider", "binary", "expected"),
    [("claude", "claude", "2.1.197"), ("opencode", "opencode", "1.18.33"),
     ("pi-agent", "pi", "0.73.1"), ("agy", "agy", "1.2.6")],
)
def test_probe_reads_the_version(
    fake_agents: FakeAgents, provider: str, binary: str, expected: str
) -> None:
    fake_agents.install(binary)
    assert get_driver(provider).probe_version(fake_agents.env()) == expected


def test_probe_of_a_missing_binary_is_none(fake_agents: FakeAgents) -> None:
    assert get_driver("claude").probe_version(fake_agents.env()) is None


def test_probe_of_a_failing_binary_is_none(fake_agents: FakeAgents) -> None:
    fake_agents.install("claude", version_mode="fail")
    assert get_driver("claude").probe_version(fake_agents.env()) is None


def test_a_hanging_binary_is_stopped_at_the_deadline(fake_agents: FakeAgents) -> None:
    fake_agents.install("opencode", version_mode="hang")
    started = time.monotonic()
    with pytest.raises(TimeoutFailure):
        get_driver("opencode").probe_version(fake_agents.env(), timeout=0.5)
    elapsed = time.monotonic() - started
    assert 0.5 <= elapsed < 5
    pid = int(fake_agents.pid_file.read_text())
    assert not pid_alive(pid)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2.1.197 (Claude Code)\n", "2.1.197"), ("\n  v0.73.1-beta.2\n", "0.73.1-beta.2"),
     ("opencode 1.18.33+build.5", "1.18.33+build.5"), ("nightly\nabc", "nightly"), ("", None),
     ("x" * 200, "x" * 80)],
)
def test_parse_version(text: str, expected: str | None) -> None:
    assert parse_version(text) == expected
