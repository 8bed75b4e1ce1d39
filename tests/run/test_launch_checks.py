"""What chat and exec check or say before an agent starts: a driver that runs no command,
a prompt the shell would drop, a base with changes the session will not have."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.supervisor.terminal_session import TerminalSession

Gz = Callable[..., Result]

SAY_HELLO = "print('hello from the shell', flush=True)\n"


@pytest.mark.parametrize(("lang", "message", "hint"), [
    ("en", "the claude driver cannot run a command: exec runs commands with a driver that "
           "runs them (shell)",
     "start claude with 'gz-ia chat -p claude', or leave out --provider to run the command "
     "with the shell"),
    ("es", "el driver claude no puede ejecutar un comando: exec ejecuta comandos con un "
           "driver que los ejecuta (shell)",
     "inicia claude con 'gz-ia chat -p claude', u omite --provider para ejecutar el comando "
     "con la shell"),
])
def test_exec_with_an_agent_driver_is_a_usage_error(  # noqa: PLR0917 - pytest fixtures
    gz: Gz, agent: Any, repo: Path, lang: str, message: str, hint: str
) -> None:
    agent("claude", "note('started', 1)\n")

    human = gz("exec", "--provider", "claude", "--", "true", cwd=repo, env={"GZ_LANG": lang})
    document = gz("--json", "exec", "--provider", "claude", "--", "true", cwd=repo,
                  env={"GZ_LANG": lang})

    assert human == Result(2, "", f"Error: {message}\n{hint}\n")
    assert (document.exit_code, document.json) == (2, {
        "ok": False, "data": None, "warnings": [],
        "errors": [{"code": "INVALID_INPUT", "message": message, "retryable": False,
                    "hint": hint, "details": {"provider": "claude", "command": ["true"]}}],
    })
    assert not (repo / ".harness").exists()


@pytest.fixture
def terminal(run_env: dict[str, str], repo: Path) -> Iterator[Callable[..., TerminalSession]]:
    opened: list[TerminalSession] = []

    def open_terminal(*args: str, env: dict[str, str]) -> TerminalSession:
        session = TerminalSession([sys.executable, "-m", "gzia", *args],
                                  env={**run_env, **env}, cwd=str(repo))
        opened.append(session)
        return session

    yield open_terminal
    for session in opened:
        session.close()


def test_chat_with_the_shell_on_a_terminal_asks_for_no_task(
    terminal: Any, agent: Any, repo: Path
) -> None:
    shell = agent("fake-shell", SAY_HELLO)
    term = terminal("chat", "-p", "shell", env={"SHELL": str(shell)})

    assert term.finish() == 0
    assert b"hello from the shell" in term.output
    assert b"[?]" not in term.output


@pytest.mark.parametrize(("lang", "warning"), [
    ("en", "Warning: Shell (shell) takes no prompt: -i/--prompt is ignored\n"),
    ("es", "Aviso: Shell (shell) no admite prompt: se ignora -i/--prompt\n"),
])
def test_a_prompt_given_to_the_shell_is_reported_as_ignored(
    gz: Gz, agent: Any, repo: Path, lang: str, warning: str
) -> None:
    shell = agent("fake-shell", SAY_HELLO)
    env = {"SHELL": str(shell), "GZ_LANG": lang}

    human = gz("chat", "-p", "shell", "-i", "fix it", cwd=repo, env=env)
    document = gz("--json", "chat", "-p", "shell", "-i", "fix it", cwd=repo, env=env)

    assert human.exit_code == 0, human.stderr
    assert human.stderr.startswith(warning)
    assert document.exit_code == 0, document.stderr
    assert document.json["warnings"] == [{
        "code": "INVALID_INPUT", "message": warning.split(": ", 1)[1].rstrip("\n"),
        "retryable": False, "hint": None,
        "details": {"provider": "shell", "option": "--prompt"},
    }]
    assert document.json["data"]["initial_prompt"] is None


def dirty(repo: Path) -> None:
    (repo / "README").write_text("edited, not committed\n")
    (repo / "new.txt").write_text("untracked\n")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "2 uncommitted changes in {base} are not in the session: it starts from the last "
           "commit ({commit}); commit them first to include them"),
    ("es", "2 cambios sin confirmar en {base} no están en la sesión: parte del último "
           "commit ({commit}); confírmalos antes para incluirlos"),
])
def test_exec_on_a_dirty_base_warns_that_the_changes_are_not_in_the_session(
    gz: Gz, agent: Any, repo: Path, lang: str, text: str
) -> None:
    from tests.run.conftest import git

    agent("look", "print(open('README').read(), os.path.exists('new.txt'), flush=True)\n")
    dirty(repo)
    commit = git(repo, "rev-parse", "HEAD")
    message = text.format(base=repo, commit=commit[:12])

    document = gz("--json", "exec", "--", "look", cwd=repo, env={"GZ_LANG": lang})
    human = gz("exec", "--", "look", cwd=repo, env={"GZ_LANG": lang})

    assert document.exit_code == 0, document.stderr
    assert document.json["warnings"] == [{
        "code": "UNCOMMITTED_CHANGES", "message": message, "retryable": False, "hint": None,
        "details": {"base": str(repo), "base_commit": commit, "count": 2,
                    "files": ["README", "new.txt"]},
    }]
    assert "project\n False" in document.stderr  # the agent saw the committed state
    prefix = {"en": "Warning", "es": "Aviso"}[lang]
    assert human.exit_code == 0, human.stderr
    assert human.stderr.splitlines()[0] == f"{prefix}: {message}"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "1 uncommitted change in {base} is not in the session: it starts from the last "
           "commit ({commit}); commit it first to include it"),
    ("es", "1 cambio sin confirmar en {base} no está en la sesión: parte del último "
           "commit ({commit}); confírmalo antes para incluirlo"),
])
def test_one_uncommitted_change_is_named_in_the_singular(
    gz: Gz, agent: Any, repo: Path, lang: str, text: str
) -> None:
    from tests.run.conftest import git

    agent("look", "pass\n")
    (repo / "README").write_text("edited, not committed\n")
    commit = git(repo, "rev-parse", "HEAD")

    document = gz("--json", "exec", "--", "look", cwd=repo, env={"GZ_LANG": lang})

    assert document.exit_code == 0, document.stderr
    assert [w["message"] for w in document.json["warnings"]] == [
        text.format(base=repo, commit=commit[:12])]


def test_chat_on_a_dirty_base_warns_too_and_a_clean_base_does_not(
    gz: Gz, agent: Any, repo: Path
) -> None:
    agent("claude", "pass\n")
    clean = gz("--json", "chat", "-p", "claude", "-i", "x", cwd=repo)
    dirty(repo)
    warned = gz("--json", "chat", "-p", "claude", "-i", "x", cwd=repo)

    assert clean.exit_code == 0 and clean.json["warnings"] == []
    assert warned.exit_code == 0
    assert [w["code"] for w in warned.json["warnings"]] == ["UNCOMMITTED_CHANGES"]
