"""``gz-ia completion bash|zsh|fish``: the script click writes, and the calls it makes back."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}


def gz_ia_on_path(bin_dir: Path, program: list[str]) -> dict[str, str]:
    """An environment whose PATH has ``gz-ia`` running ``program`` (the script calls it)."""
    bin_dir.mkdir(exist_ok=True)
    launcher = bin_dir / "gz-ia"
    launcher.write_text("#!/bin/sh\nexec " + " ".join(program) + ' "$@"\n')
    launcher.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


BASH_COMPLETES = """
source <(gz-ia completion bash)
while IFS= read -r words; do
    read -r -a COMP_WORDS <<< "$words"
    [[ $words == *' ' ]] && COMP_WORDS+=('')
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    _gz_ia_completion gz-ia
    echo "${COMPREPLY[*]}"
done
"""


def bash_completions(env: dict[str, str], *lines: str) -> list[str]:
    done = subprocess.run(["bash", "-c", BASH_COMPLETES], input="\n".join(lines) + "\n",
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.splitlines()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_bash_script_completes_commands_subcommands_and_flags(tmp_path: Path) -> None:
    env = gz_ia_on_path(tmp_path / "bin", [sys.executable, "-m", "gzia"])
    assert bash_completions(
        env, "gz-ia ses", "gz-ia session mer", "gz-ia --json ses", "gz-ia session merge --sq",
        "gz-ia compl", "gz-ia config ", "gz-ia sesion li", "gz-ia session bogus --j",
    ) == ["session", "merge", "session", "--squash", "completion", "list get set unset path",
          "", "--json"]  # an unknown word offers nothing, never an error in the terminal


@pytest.mark.parametrize(("shell", "words", "expected"), [
    ("zsh", "gz-ia session mer", "plain\nmerge\nMerge the session's branch into the...\n"),
    ("fish", "gz-ia session mer", "plain,merge\tMerge the session's branch into the...\n"),
])
def test_the_zsh_and_fish_scripts_get_answers_in_their_format(
    cli: Cli, tmp_path: Path, shell: str, words: str, expected: str
) -> None:
    """Neither shell is needed to check the calls their scripts make back to gz-ia."""
    script = cli("completion", shell).stdout
    assert f"_GZ_IA_COMPLETE={shell}_complete" in script
    # zsh's script passes the index of the word being completed, fish's the word itself
    cword = str(len(words.split()) - 1) if shell == "zsh" else words.rsplit(maxsplit=1)[-1]
    env = {**gz_ia_on_path(tmp_path / "bin", [sys.executable, "-m", "gzia"]),
           "_GZ_IA_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": cword}
    done = subprocess.run(["gz-ia"], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")


def test_json_holds_the_script(cli: Cli) -> None:
    human = cli("completion", "bash")
    assert human.exit_code == 0 and human.stdout.startswith("_gz_ia_completion() {\n")
    assert cli("completion", "bash", "--json").json == {
        "ok": True, "data": {"shell": "bash", "script": human.stdout}, "errors": [],
        "warnings": []}


@pytest.mark.parametrize(("env", "message"), [
    ({}, "Error: unsupported shell 'tcsh': choose bash, zsh, fish\n"),
    (ES, "Error: shell no soportada 'tcsh': elige bash, zsh, fish\n"),
])
def test_an_unknown_shell_is_invalid_input(cli: Cli, env: dict[str, str], message: str) -> None:
    assert cli("completion", "tcsh", env=env) == Result(2, "", message)
    error = cli("completion", "tcsh", "--json").json["errors"][0]
    assert (error["code"], error["details"]) == (
        "INVALID_INPUT", {"shell": "tcsh", "choices": ["bash", "zsh", "fish"]})


@pytest.mark.pyz
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_installed_pyz_completes_in_bash(pyz: Path, tmp_path: Path) -> None:
    """Installed as the README says (install -m 755 dist/gz-ia.pyz ~/.local/bin/gz-ia)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    subprocess.run(["install", "-m", "755", str(pyz), str(bin_dir / "gz-ia")], check=True)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    assert bash_completions(env, "gz-ia session ki", "gz-ia upd") == ["kill", "update"]


def test_a_loaded_typer_plugin_leaves_the_completion_protocol_as_it_is(cli: Cli) -> None:
    """typer registers its own completion classes in click's shared registry when a
    plugin's typer app is loaded; gz-ia's scripts and answers stay click's."""
    import typer
    from click.shell_completion import get_completion_class

    plugin = typer.Typer()
    plugin.command()(lambda: None)
    typer.main.get_command(plugin)  # what loading a plugin's typer app does
    assert get_completion_class("zsh").__module__.startswith("typer")  # the precondition
    for shell in ("bash", "zsh", "fish"):
        script = cli("completion", shell).stdout
        assert f"_GZ_IA_COMPLETE={shell}_complete" in script and "TYPER" not in script
    answer = cli(env={"_GZ_IA_COMPLETE": "zsh_complete", "COMP_WORDS": "gz-ia session mer",
                      "COMP_CWORD": "2"})
    assert (answer.exit_code, answer.stdout) == (
        0, "plain\nmerge\nMerge the session's branch into the...\n")
