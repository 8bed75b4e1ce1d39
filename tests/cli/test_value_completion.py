"""Values completed after TAB, through the protocol click's scripts speak
(``_GZ_IA_COMPLETE=<shell>_complete``, ``COMP_WORDS``, ``COMP_CWORD``): session ids with
their names or prompts, providers, permission modes, profiles, setting names, shells."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.settings import SETTINGS
from tests.cli.test_completion import bash_completions, gz_ia_on_path
from tests.conftest import Result

Cli = Callable[..., Result]


def complete(words: str, *, script: str = "zsh", cwd: Path) -> list[str]:
    """What gz-ia, as its own process, answers a completion script for ``words`` (a
    trailing space: a new word is being completed)."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    env = {**os.environ, "_GZ_IA_COMPLETE": f"{script}_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(cword)}
    done = subprocess.run([sys.executable, "-m", "gzia"], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    return [line for line in done.stdout.splitlines() if line]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    sessions = root / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    records = {
        "abcdef01": {"initial_prompt": "fix the login bug\nand its test"},
        "abc00002": {"name": "release notes", "initial_prompt": "write them"},
        "12345678": {"command": ["make", "test"]},
        "abcdef09": {"initial_prompt": "x" * 100},
    }
    for sid, fields in records.items():
        (sessions / f"{sid}.json").write_text(json.dumps({"id": sid, **fields}))
    (sessions / "abcdef01.events.jsonl").write_text("{}\n")
    (sessions / "abcdef0f.json").symlink_to(sessions / "abcdef01.json")  # never followed
    return root


def test_session_ids_come_with_their_name_prompt_or_command(project: Path) -> None:
    assert complete("gz-ia session show ab", cwd=project) == [
        "plain", "abc00002", "release notes",
        "plain", "abcdef01", "fix the login bug and its test",
        "plain", "abcdef09", "x" * 59 + "…",
        "plain", "abcdef0f", "_",
    ]
    assert complete("gz-ia resume 1", cwd=project) == ["plain", "12345678", "make test"]


@pytest.mark.parametrize("words", [
    "gz-ia session merge -d {root} abc0", "gz-ia session -d {root} diff abc0",
])
def test_session_ids_of_the_project_dash_d_names(project: Path, tmp_path: Path,
                                                 words: str) -> None:
    elsewhere = complete(words.format(root=project), script="bash", cwd=tmp_path)
    assert elsewhere == ["plain,abc00002"]
    assert complete("gz-ia session show abc0", script="bash", cwd=tmp_path) == []


@pytest.mark.parametrize(("words", "expected"), [
    ("gz-ia chat -p ", ["agy", "claude", "opencode", "pi-agent", "shell"]),
    ("gz-ia exec --provider o", ["opencode"]),
    ("gz-ia session list --provider p", ["pi-agent"]),
    ("gz-ia metrics -p c", ["claude"]),
    ("gz-ia chat -m ", ["readonly", "supervised", "autonomous"]),
    ("gz-ia config get ", [s.key for s in SETTINGS]),
    ("gz-ia config set default_p", ["default_provider", "default_permission"]),
    ("gz-ia completion ", ["bash", "zsh", "fish"]),
    ("gz-ia completion f", ["fish"]),
    ("gz-ia session list --status ", ["running", "completed", "failed", "killed", "lost",
                                      "paused", "merged"]),
    ("gz-ia metrics --status k", ["killed"]),
])
def test_values_of_flags_and_arguments(tmp_path: Path, words: str, expected: list[str]) -> None:
    assert complete(words, script="bash", cwd=tmp_path) == [f"plain,{value}" for value in expected]


def test_profiles_with_their_descriptions(cli: Cli, project: Path) -> None:
    made = cli("profile", "create", "reviewer", "-d", str(project))
    assert made.exit_code == 0, made.stderr
    assert complete("gz-ia chat --profile re", script="bash", cwd=project) == [
        "plain,reviewer"]
    assert complete("gz-ia profile show ", script="bash", cwd=project) == ["plain,reviewer"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_a_session_id_by_its_prefix(project: Path, tmp_path: Path) -> None:
    env = gz_ia_on_path(tmp_path / "bin", [sys.executable, "-m", "gzia"])
    lines = bash_completions(env, f"gz-ia session kill -d {project} 1",
                             f"gz-ia chat -d {project} -m aut")
    assert lines == ["12345678", "autonomous"]


def test_a_tab_reads_at_most_fifty_records(project: Path) -> None:
    """Past 50 matches the ids come alone: a TAB never reads a whole large store."""
    sessions = project / ".harness" / "sessions"
    for number in range(51):
        sid = f"ee{number:06x}"
        (sessions / f"{sid}.json").write_text(json.dumps({"id": sid, "initial_prompt": "p"}))
    many = complete("gz-ia session show ee", cwd=project)
    assert many == [line for number in range(51) for line in ("plain", f"ee{number:06x}", "_")]
    (sessions / "ee000032.json").unlink()
    assert complete("gz-ia session show ee", cwd=project)[:3] == ["plain", "ee000000", "p"]


@pytest.mark.parametrize(("env", "expected"), [
    ({}, ["plain", "default_provider", "agent used when -p is not given (else the first "
          "available)", "plain", "default_permission", "permission level used when -m is not "
          "given"]),
    ({"GZ_LANG": "es"}, ["plain", "default_provider", "agente usado cuando no se da -p (si no, "
                         "el primero disponible)", "plain", "default_permission", "nivel de "
                         "permisos usado cuando no se da -m"]),
])
def test_setting_names_come_with_what_they_set(project: Path, monkeypatch: pytest.MonkeyPatch,
                                               env: dict[str, str], expected: list[str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert complete("gz-ia config get default_", cwd=project) == expected


@pytest.mark.parametrize(("words", "expected"), [
    ("gz-ia help ses", ["plain", "session", "Manage local agent sessions (list, show,..."]),
    ("gz-ia help session me", ["plain", "merge", "Merge the session's branch into the...",
                               "plain", "metrics", "Show a session's status, duration, exit..."]),
    ("gz-ia help session list ", []), ("gz-ia help bogus ", []),
])
def test_help_completes_the_commands_it_can_show(project: Path, words: str,
                                                 expected: list[str]) -> None:
    assert complete(words, cwd=project) == expected


@pytest.mark.skipif(shutil.which("fish") is None, reason="needs fish")
def test_fish_shows_a_description_whole_past_its_commas(project: Path, tmp_path: Path) -> None:
    """click's fish script split each answer at every comma: "Show a session's status"."""
    env = gz_ia_on_path(tmp_path / "bin", [sys.executable, "-m", "gzia"])
    script = subprocess.run(["gz-ia", "completion", "fish"], env=env, capture_output=True,
                            text=True, timeout=60, check=True).stdout
    done = subprocess.run(["fish", "--no-config", "-c",
                           f"{script}\ncomplete -C 'gz-ia help session me'"], env=env,
                          cwd=project, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "merge\tMerge the session's branch into the...",
        "metrics\tShow a session's status, duration, exit..."]
