"""New worktrees that work: ``.worktreeinclude`` copies the main checkout's ignored files
into each new session worktree, then the project's setup runs there once, with a timeout;
a failure stops the start and leaves nothing behind (docs/sessions.md, "New worktrees")."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import git
from tests.supervisor.fakes import pid_running, wait_for_note

Gz = Callable[..., Result]

PROBE = """
import json
found = []
for top, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if d not in (".git", ".harness-session")]
    found += [os.path.relpath(os.path.join(top, name)) for name in files
              if (top, name) != (".", ".git")]
note("probe.json", json.dumps({"cwd": os.getcwd(), "files": sorted(found)}))
"""


@pytest.fixture
def probe(agent: Any) -> None:
    agent("probe", PROBE)


def events(repo: Path, session_id: str) -> list[dict[str, Any]]:
    path = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def of_type(repo: Path, session_id: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in events(repo, session_id) if (e.get("metadata") or {}).get("type") == kind]


def commit(repo: Path, files: dict[str, str], *, executable: tuple[str, ...] = ()) -> None:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if name in executable:
            path.chmod(0o755)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "setup files")


def nothing_left(repo: Path) -> None:
    """No worktree, no session branch, no record of the refused start."""
    worktrees = repo / ".harness" / "worktrees"
    assert not worktrees.exists() or list(worktrees.iterdir()) == []
    assert git(repo, "branch", "--list", "harness/*") == ""
    sessions = repo / ".harness" / "sessions"
    assert not sessions.exists() or [p.name for p in sessions.glob("*.json")] == []
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


@pytest.mark.usefixtures("probe")
def test_worktreeinclude_copies_ignored_files_with_negation_and_directories(
        gz: Gz, repo: Path, notes: Path) -> None:
    commit(repo, {".gitignore": ".env\n*.secret\nconfig/local/\nbuild/\n",
                  ".worktreeinclude": "# local set-up\n.env\n*.secret\n!keep-out.secret\n"
                                      "config/local/\nREADME\nnotes.txt\n"})
    files = {".env": "TOKEN=1\n", "a.secret": "a\n", "keep-out.secret": "no\n",
             "config/local/app.yml": "x: 1\n", "config/local/deep/more.yml": "y: 2\n",
             "build/out.bin": "not listed\n", "notes.txt": "untracked, not ignored\n"}
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (repo / ".env").chmod(0o600)

    result = gz("--json", "exec", "probe", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    seen = json.loads(wait_for_note(notes, "probe.json"))
    assert seen["cwd"] == record["worktree_dir"]
    copied = [".env", "a.secret", "config/local/app.yml", "config/local/deep/more.yml"]
    assert sorted(seen["files"]) == sorted([".gitignore", ".worktreeinclude", "README", *copied])
    worktree = Path(record["worktree_dir"])
    assert stat.S_IMODE((worktree / ".env").stat().st_mode) == 0o600
    assert not any(p.is_symlink() for p in worktree.rglob("*"))
    assert git(worktree, "status", "--porcelain", "--untracked-files=all") == ""
    [event] = of_type(repo, record["id"], "worktree_include")
    assert event["metadata"] == {"type": "worktree_include", "copied": copied,
                                 "skipped": [{"path": "notes.txt", "reason": "not_ignored"}]}
    projected = json.loads((repo / ".harness" / "sessions" / f"{record['id']}.projected")
                           .read_text())
    assert projected == copied  # no commit of gz-ia's takes them; merge refuses them


@pytest.mark.usefixtures("probe")
def test_symbolic_links_named_by_the_include_file_are_never_copied(
        gz: Gz, repo: Path, tmp_path: Path, notes: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "id_key").write_text("private\n")
    (outside / "dir").mkdir()
    (outside / "dir" / "inner.secret").write_text("private too\n")
    commit(repo, {".gitignore": ".env\n*.secret\nlinked\n",  # git sees a link as a file
                  ".worktreeinclude": ".env\n*.secret\nlinked\n"})
    (repo / ".env").symlink_to(outside / "id_key")
    (repo / "relative.secret").symlink_to("../outside/id_key")
    (repo / "linked").symlink_to(outside / "dir")

    result = gz("--json", "exec", "probe", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    worktree = Path(record["worktree_dir"])
    assert json.loads(wait_for_note(notes, "probe.json"))["files"] == [
        ".gitignore", ".worktreeinclude", "README"]
    assert not any(os.path.lexists(worktree / name)
                   for name in (".env", "relative.secret", "linked"))
    [event] = of_type(repo, record["id"], "worktree_include")
    assert event["metadata"]["copied"] == []
    assert event["metadata"]["skipped"] == [
        {"path": ".env", "reason": "symlink"}, {"path": "linked", "reason": "symlink"},
        {"path": "relative.secret", "reason": "symlink"}]


SETUP_OK = """#!/bin/sh
echo "setting up in $(pwd)"
echo "to stderr" >&2
echo ran >> "$FAKE_NOTES/setup-runs"
"""


@pytest.mark.usefixtures("probe")
def test_the_setup_script_runs_once_in_the_new_worktree_and_its_output_is_an_event(
        gz: Gz, repo: Path, notes: Path) -> None:
    commit(repo, {".gz-ia/setup": SETUP_OK}, executable=(".gz-ia/setup",))

    result = gz("--json", "exec", "probe", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    worktree = record["worktree_dir"]
    assert (notes / "setup-runs").read_text() == "ran\n"
    [event] = of_type(repo, record["id"], "worktree_setup")
    assert event["status"] == "OK"
    assert event["metadata"] == {
        "type": "worktree_setup", "argv": [f"{worktree}/.gz-ia/setup"], "exit_code": 0,
        "output": f"setting up in {worktree}\nto stderr\n"}
    resumed = gz("--json", "session", "resume", record["id"], cwd=repo)
    assert resumed.exit_code == 0, resumed.stderr
    assert (notes / "setup-runs").read_text() == "ran\n"  # the worktree was there already


SETUP_FAILS = """#!/bin/sh
echo "installing dependencies"
echo "error: the registry said no" >&2
exit 3
"""


@pytest.mark.usefixtures("probe")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_failing_setup_stops_the_start_and_leaves_nothing(
        gz: Gz, repo: Path, notes: Path, lang: str) -> None:
    commit(repo, {".gz-ia/setup": SETUP_FAILS}, executable=(".gz-ia/setup",))

    result = gz("--json", "exec", "probe", cwd=repo, env={"GZ_LANG": lang})

    assert result.exit_code == 1
    [error] = result.json["errors"]
    worktree = error["details"]["worktree"]
    assert worktree.startswith(str(repo / ".harness" / "worktrees"))
    setup = f"{worktree}/.gz-ia/setup"
    assert error == {
        "code": "IO", "retryable": False,
        "message": {
            "en": f"the worktree setup ({setup}) failed with exit code 3 in {worktree}; the new "
                  "worktree was removed. Its last output: installing dependencies\n"
                  "error: the registry said no",
            "es": f"la preparación del worktree ({setup}) falló con el código de salida 3 en "
                  f"{worktree}; se eliminó el worktree nuevo. Su última salida: installing "
                  "dependencies\nerror: the registry said no"}[lang],
        "hint": {"en": "fix the setup, or run without it: --skip-setup",
                 "es": "corrige la preparación, o ejecuta sin ella: --skip-setup"}[lang],
        "details": {"argv": [setup], "exit_code": 3, "worktree": worktree,
                    "output": "installing dependencies\nerror: the registry said no\n"}}
    assert not (notes / "probe.json").exists()
    nothing_left(repo)

    skipped = gz("--json", "exec", "--skip-setup", "probe", cwd=repo)
    assert skipped.exit_code == 0, skipped.stderr
    [event] = of_type(repo, skipped.json["data"]["id"], "worktree_setup")
    assert event["metadata"]["skipped"] is True


SETUP_HANGS = """
note("setup.pid", os.getpid())
child = fork_grandchild("setup-child")
time.sleep(600)
"""


@pytest.mark.usefixtures("probe")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_setup_past_its_timeout_is_stopped_with_its_process_group(
        gz: Gz, repo: Path, notes: Path, agent: Any, lang: str) -> None:
    slow = agent("slow-setup", SETUP_HANGS)

    result = gz("--json", "exec", "probe", cwd=repo,
                env={"GZ_WORKTREE_SETUP": str(slow), "GZ_WORKTREE_SETUP_TIMEOUT": "1.5",
                     "GZ_LANG": lang})

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["retryable"]) == ("TIMEOUT", True)
    assert (error["message"], error["hint"]) == {
        "en": (f"the worktree setup ({slow}) did not finish within 1.5 s and was stopped with "
               "its process group; the new worktree was removed",
               "give it more time (gz-ia config set worktree_setup_timeout SECONDS), or run "
               "without it: --skip-setup"),
        "es": (f"la preparación del worktree ({slow}) no terminó en 1.5 s y se detuvo con su "
               "grupo de procesos; se eliminó el worktree nuevo",
               "dale más tiempo (gz-ia config set worktree_setup_timeout SEGUNDOS), o ejecuta "
               "sin ella: --skip-setup")}[lang]
    for name in ("setup.pid", "setup-child.pid"):
        assert not pid_running(int(wait_for_note(notes, name)))
    assert not (notes / "probe.json").exists()
    nothing_left(repo)


@pytest.mark.usefixtures("probe")
def test_a_setup_script_that_is_a_link_is_refused(gz: Gz, repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sh"
    target.write_text("#!/bin/sh\nexit 0\n")
    target.chmod(0o755)
    (repo / ".gz-ia").mkdir()
    (repo / ".gz-ia" / "setup").symlink_to(target)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a linked setup")

    result = gz("--json", "exec", "probe", cwd=repo)

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["message"]) == (
        "SAFETY_BLOCK", "'.gz-ia/setup' is a symbolic link: gz-ia runs only a regular file as "
                        "the worktree setup")
    nothing_left(repo)


@pytest.mark.usefixtures("probe")
def test_the_projects_own_settings_file_names_the_setup(
        gz: Gz, repo: Path, notes: Path, agent: Any) -> None:
    setup = agent("project-setup", 'note("project-setup-ran", os.getcwd())\n')
    commit(repo, {".gz-ia/setup": SETUP_OK}, executable=(".gz-ia/setup",))  # the setting wins
    (repo / ".harness").mkdir(exist_ok=True)
    (repo / ".harness" / "config.toml").write_text(
        f'worktree_setup = ["{setup}"]\nworktree_setup_timeout = 30\n')

    result = gz("--json", "exec", "probe", cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert wait_for_note(notes, "project-setup-ran") == result.json["data"]["worktree_dir"]
    assert not (notes / "setup-runs").exists()
