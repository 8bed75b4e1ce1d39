"""gz-ia notify test: one line per channel, the deliveries as data, exit 1 when one
failed; the webhook's credentials are never shown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.fakes.http import FakeServer, dead_url
from tests.notify.conftest import hook_calls, posts


@pytest.fixture
def hook_configured(hook: tuple[list[str], Path], settings_file: Callable[..., Path]) -> Path:
    """The hook as notify_command in the user's settings (no desktop); the file it writes."""
    argv, out = hook
    settings_file(notify_command=argv, notify_desktop=False)
    return out


@pytest.mark.parametrize("case", [("en", "✓ command: sent\n✓ webhook: sent\n"),
                                  ("es", "✓ command: enviada\n✓ webhook: enviada\n")],
                         ids=["en", "es"])
def test_notify_test_sends_through_each_channel(
        cli: Callable[..., Result], repo: Path, receiver: FakeServer,
        hook_configured: Path, case: tuple[str, str]) -> None:
    lang, lines = case
    out = hook_configured
    result = cli("notify", "test", cwd=repo,
                 env={"GZ_NOTIFY_WEBHOOK": receiver.url + "/hook", "GZ_LANG": lang})
    assert (result.exit_code, result.stdout, result.stderr) == (0, lines, "")
    assert [p["event"] for p in posts(receiver)] == ["test"]
    assert len(hook_calls(out)) == 1


def test_a_failed_channel_is_exit_1_and_names_no_credential(
        cli: Callable[..., Result], repo: Path, settings_file: Callable[..., Path]) -> None:
    settings_file(notify_desktop=False)
    url = dead_url().replace("://", "://user:pa55w0rd@") + "/services/T0/s3cr3t?token=s3cr3t"
    result = cli("--json", "notify", "test", cwd=repo, env={"GZ_NOTIFY_WEBHOOK": url})
    assert result.exit_code == 1
    assert "pa55w0rd" not in result.stdout + result.stderr
    assert "s3cr3t" not in result.stdout + result.stderr
    (error,) = result.json["errors"]
    assert (error["code"], error["message"], error["retryable"]) == (
        "NETWORK", "the test notification did not go through: webhook", True)
    (channel,) = result.json["data"]["channels"]
    assert (channel["channel"], channel["ok"], channel["attempts"]) == ("webhook", False, 3)
    assert channel["detail"].startswith("cannot connect to 127.0.0.1:")


def test_no_channel_is_said_so(cli: Callable[..., Result], repo: Path,
                               settings_file: Callable[..., Path]) -> None:
    settings_file(notify_desktop=False)
    result = cli("notify", "test", cwd=repo)
    assert (result.exit_code, result.stdout) == (0, (
        "No notification channel is configured (notify_command, notify_webhook, "
        "notify_desktop with notify-send installed).\n"))


def test_the_webhook_is_masked_in_config_list(cli: Callable[..., Result],
                                              settings_file: Callable[..., Path]) -> None:
    settings_file(notify_webhook="https://hooks.example/services/T0/B0/s3cr3t")
    result = cli("--json", "config", "get", "notify_webhook")
    assert result.json["data"]["value"] == "****"
