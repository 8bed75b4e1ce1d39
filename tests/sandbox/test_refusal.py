"""Where no sandbox can be made, a sandboxed start is refused: never run unsandboxed."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Gz = Callable[..., Result]

MISSING = {
    "en": ("--sandbox needs bubblewrap (bwrap), which is not installed: the session was not "
           "started",
           "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install "
           "bubblewrap)"),
    "es": ("--sandbox necesita bubblewrap (bwrap), que no está instalado: la sesión no se "
           "inició",
           "instala bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install "
           "bubblewrap)"),
}
CANNOT = {
    "en": "bubblewrap cannot create a sandbox here (bwrap: No permissions to create a new "
          "namespace): the session was not started",
    "es": "bubblewrap no puede crear un sandbox aquí (bwrap: No permissions to create a new "
          "namespace): la sesión no se inició",
}


def _path_without_bwrap(tmp_path: Path, fake_bwrap: str | None = None) -> str:
    """A PATH with git (and a stand-in bwrap when given), and no real bwrap."""
    directory = tmp_path / "tools"
    directory.mkdir()
    for program in ("git", "true"):
        found = shutil.which(program)
        assert found is not None
        (directory / program).symlink_to(found)
    if fake_bwrap is not None:
        (directory / "bwrap").write_text(fake_bwrap)
        (directory / "bwrap").chmod(0o755)
    return str(directory)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_sandboxed_start_without_bubblewrap_is_refused(
        gz: Gz, repo: Path, tmp_path: Path, lang: str) -> None:
    env = {"PATH": _path_without_bwrap(tmp_path), "GZ_LANG": lang}

    result = gz("exec", "--sandbox", "--", "true", cwd=repo, env=env)
    as_json = gz("--json", "exec", "--sandbox", "--", "true", cwd=repo, env=env)

    message, hint = MISSING[lang]
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"Error: {message}\n{hint}\n"
    assert as_json.exit_code == 1
    assert as_json.json["errors"] == [{"code": "NOT_FOUND", "message": message,
                                       "retryable": False, "hint": hint,
                                       "details": {"program": "bwrap"}}]
    assert not (repo / ".harness" / "sessions").exists() or \
        not os.listdir(repo / ".harness" / "sessions")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_sandbox_setting_without_namespaces_is_refused(
        gz: Gz, repo: Path, tmp_path: Path, lang: str) -> None:
    failing = "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n"
    env = {"PATH": _path_without_bwrap(tmp_path, failing), "GZ_LANG": lang, "GZ_SANDBOX": "1"}

    result = gz("--json", "exec", "--", "true", cwd=repo, env=env)

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["message"]) == ("IO", CANNOT[lang])
    assert not (repo / ".harness" / "worktrees").exists() or \
        not os.listdir(repo / ".harness" / "worktrees")


def test_the_probe_answers_for_the_path_it_is_asked_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One process asking on a PATH without bwrap (a front end started with a stand-in
    PATH), then on one with it, gets both answers right: the cache is per PATH."""
    from gzia.sandbox.probe import sandbox_support

    real_path = os.environ["PATH"]
    monkeypatch.setenv("PATH", _path_without_bwrap(tmp_path))
    assert sandbox_support().bwrap is None
    monkeypatch.setenv("PATH", real_path)
    assert sandbox_support().works
