"""A sandboxed session says so: a mark in ``session list``, a line in ``session show``
(the terminal UI's details are the same lines)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Gz = Callable[..., Result]


@pytest.mark.parametrize(("lang", "mark", "line"), [
    ("en", "Sandboxed", "Sandbox:    network allowlist (127.0.0.1, *.example.com)"),
    ("es", "En sandbox", "Sandbox:    red allowlist (127.0.0.1, *.example.com)"),
])
def test_list_and_show_mark_a_sandboxed_session(
        gz: Gz, repo: Path, lang: str, mark: str, line: str) -> None:
    env = {"GZ_LANG": lang, "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.1 *.example.com"}
    plain = gz("--json", "exec", "--", "true", cwd=repo).json["data"]["id"]
    boxed = gz("--json", "exec", "--sandbox", "--", "true", cwd=repo, env=env).json["data"]["id"]

    rows = gz("session", "list", cwd=repo, env=env).stdout.splitlines()
    shown = gz("session", "show", boxed, cwd=repo, env=env).stdout.splitlines()

    mode = {row.split()[0]: row for row in rows[2:]}
    assert f" {mark}  " in mode[boxed]
    assert mark not in mode[plain]
    assert line in shown
    assert not any(text.startswith("Sandbox:") for text in
                   gz("session", "show", plain, cwd=repo, env=env).stdout.splitlines())


def test_the_terminal_ui_starts_sandboxed_when_the_setting_says_so(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gzia.tui.starting import Choice, start_in_background
    from tests.background.conftest import wait_final

    monkeypatch.setenv("GZ_SANDBOX", "1")
    monkeypatch.setenv("GZ_SANDBOX_NETWORK", "none")

    session, _ = start_in_background(repo, Choice("shell", "supervised", command=("true",),
                                                  background=True), preapproved_tools=())

    assert wait_final(repo, session)["sandbox"]["network"] == "none"
