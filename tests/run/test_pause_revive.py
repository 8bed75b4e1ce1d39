"""``session pause`` frees a session's worktree with its work committed on its branch;
``session revive`` brings the worktree back at the same path and continues the same
conversation. A kill -9 of gz-ia at any moment loses nothing, and a retry completes."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import GzProcess, git, stored_record
from tests.run.test_chat_and_resume import calls
from tests.supervisor.fakes import wait_for_note

Gz = Callable[..., Result]

EDITING_CLAUDE = """
import json, re
calls = [name for name in os.listdir(os.environ["FAKE_NOTES"]) if name.startswith("call-")]
note("call-%d.json" % len(calls), json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd()}))
if "--session-id" in sys.argv:  # the first turn: edits left uncommitted, a transcript
    with open("README", "a") as handle:
        handle.write("changed by the agent\\n")
    os.makedirs("src", exist_ok=True)
    with open("src/new.py", "w") as handle:
        handle.write("print('new')\\n")
    os.remove("gone.txt")
    folder = os.path.join(os.environ["HOME"], ".claude", "projects",
                          re.sub("[^A-Za-z0-9]", "-", os.getcwd()))
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, sys.argv[sys.argv.index("--session-id") + 1] + ".jsonl"),
         "w").close()
if os.environ.get("FAKE_WAIT"):
    note("ready", 1)
    while True:
        time.sleep(1)
"""


@pytest.fixture
def project(repo: Path) -> Path:
    (repo / "gone.txt").write_text("to be deleted\n")
    git(repo, "add", "gone.txt")
    git(repo, "commit", "-qm", "a file the agent deletes")
    return repo


@pytest.fixture
def claude(agent: Any) -> None:
    agent("claude", EDITING_CLAUDE)


def branch_files(repo: Path, session_id: str) -> dict[str, str]:
    names = git(repo, "ls-tree", "-r", "--name-only", f"harness/{session_id}").splitlines()
    return {name: git(repo, "show", f"harness/{session_id}:{name}") for name in names}


AGENT_WORK = {"README": "project\nchanged by the agent", "src/new.py": "print('new')"}


@pytest.mark.usefixtures("claude")
def test_pause_commits_the_agents_edits_and_revive_continues_its_conversation(
        gz: Gz, project: Path, notes: Path) -> None:
    first = gz("--json", "chat", "-p", "claude", "-i", "edit things", cwd=project).json["data"]
    worktree = Path(first["worktree_dir"])

    paused = gz("--json", "session", "pause", first["id"], cwd=project)

    assert paused.exit_code == 0, paused.stderr
    data = paused.json["data"]
    assert (data["status"], data["paused_from"]) == ("paused", "completed")
    assert data["pause"]["files"] == ["README", "gone.txt", "src/new.py"]
    assert data["pause"]["already_paused"] is False
    assert not worktree.exists()
    assert str(worktree) not in git(project, "worktree", "list")
    assert branch_files(project, first["id"]) == AGENT_WORK
    tip = git(project, "log", "-1", "--format=%s", f"harness/{first['id']}")
    assert tip == f"harness({first['id']}): paused"
    assert stored_record(project, first["id"])["status"] == "paused"
    listed = gz("session", "list", cwd=project, env={"GZ_LANG": "es"}).stdout
    assert "pausada" in listed.splitlines()[2].split()

    revived = gz("--json", "session", "revive", first["id"], cwd=project)

    assert revived.exit_code == 0, revived.stderr
    assert calls(notes)[1]["cwd"] == str(worktree)  # where the agent keys its transcripts
    assert calls(notes)[1]["argv"][-2:] == ["--resume", first["conversation_id"]]
    record = stored_record(project, first["id"])
    assert (record["status"], record["conversation_id"]) == ("completed", first["conversation_id"])
    assert "paused_at" not in record and "paused_from" not in record
    assert (worktree / "src" / "new.py").read_text() == "print('new')\n"
    assert not (worktree / "gone.txt").exists()
    assert git(worktree, "status", "--porcelain") == ""


@pytest.mark.usefixtures("claude")
def test_pause_stops_a_running_agent_first(gz: Gz, project: Path, notes: Path) -> None:
    started = gz("--json", "chat", "-b", "-p", "claude", "-i", "work", cwd=project,
                 env={"FAKE_WAIT": "1"})
    assert started.exit_code == 0, started.stderr
    session_id = started.json["data"]["id"]
    wait_for_note(notes, "ready")

    paused = gz("--json", "session", "pause", session_id, cwd=project)

    assert paused.exit_code == 0, paused.stderr
    data = paused.json["data"]
    assert data["pause"]["stop"] == {"how": "stopped", "why_killed": None}
    assert (data["status"], data["paused_from"]) == ("paused", "killed")
    assert branch_files(project, session_id) == AGENT_WORK
    assert not Path(started.json["data"]["worktree_dir"]).exists()
    again = gz("--json", "session", "pause", session_id, cwd=project)
    assert (again.exit_code, again.json["data"]["pause"]["already_paused"]) == (0, True)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_revive_refuses_a_session_that_is_not_paused(
        gz: Gz, project: Path, agent: Any, lang: str) -> None:
    agent("claude", "pass\n")
    first = gz("--json", "chat", "-p", "claude", "-i", "x", cwd=project).json["data"]

    result = gz("--json", "session", "revive", first["id"], cwd=project, env={"GZ_LANG": lang})

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["message"], error["hint"]) == ("CONFLICT", *{
        "en": (f"session '{first['id']}' is not paused (current status: completed)",
               f"a session that is not paused goes on with gz-ia session resume {first['id']}"),
        "es": (f"la sesión '{first['id']}' no está pausada (estado actual: completed)",
               f"una sesión que no está pausada continúa con gz-ia session resume "
               f"{first['id']}")}[lang])


def test_revive_brings_back_included_files_and_runs_the_setup_again(
        gz: Gz, project: Path, agent: Any, notes: Path) -> None:
    agent("claude", 'open(os.path.join(os.environ["FAKE_NOTES"], "runs"), "a").write("run\\n")\n')
    (project / ".gitignore").write_text(".env\n")
    (project / ".worktreeinclude").write_text(".env\n")
    (project / ".gz-ia").mkdir()
    (project / ".gz-ia" / "setup").write_text('#!/bin/sh\necho ran >> "$FAKE_NOTES/setup"\n')
    (project / ".gz-ia" / "setup").chmod(0o755)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "setup")
    (project / ".env").write_text("KEY=1\n")
    first = gz("--json", "chat", "-p", "claude", "-i", "x", cwd=project).json["data"]
    worktree = Path(first["worktree_dir"])
    assert gz("session", "pause", first["id"], cwd=project).exit_code == 0

    revived = gz("--json", "session", "revive", "--no-resume", first["id"], cwd=project)

    assert revived.exit_code == 0, revived.stderr
    assert revived.json["data"]["status"] == "completed"
    assert (worktree / ".env").read_text() == "KEY=1\n"
    assert (notes / "setup").read_text() == "ran\nran\n"
    assert (notes / "runs").read_text() == "run\n"  # --no-resume: the agent did not start
    assert git(worktree, "status", "--porcelain") == ""


def edit(worktree: Path, round_: int) -> dict[str, str | None]:
    """Edits as an agent leaves them: a tracked change, a new file, a deletion."""
    (worktree / "README").write_text(f"round {round_}\n")
    (worktree / f"new-{round_}.txt").write_text(f"new in round {round_}\n")
    tracked = sorted(p.name for p in worktree.glob("new-*.txt")
                     if p.name != f"new-{round_}.txt")
    expected: dict[str, str | None] = {"README": f"round {round_}\n",
                                       f"new-{round_}.txt": f"new in round {round_}\n"}
    if tracked:
        (worktree / tracked[0]).unlink()
        expected[tracked[0]] = None
    return expected


def holds(project: Path, session_id: str, worktree: Path, expected: dict[str, str | None]) -> None:
    """Each expected file is as expected in the worktree, or on the branch."""
    for name, text in expected.items():
        shown = subprocess.run(["git", "show", f"harness/{session_id}:{name}"], cwd=project,
                               capture_output=True, text=True, check=False)
        on_branch = shown.stdout if shown.returncode == 0 else None
        here = (worktree / name).read_text() if (worktree / name).is_file() else None
        assert text in (on_branch, here) if worktree.exists() else on_branch == text, name


def killed_at_random(gz_start: GzProcess, project: Path, *args: str) -> None:
    process = gz_start(*args, cwd=project)
    time.sleep(random.uniform(0.0, 1.2))  # noqa: S311 (a moment, not a secret)
    with_output = process.poll() is not None
    if not with_output:
        os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)


def test_kill_9_during_pause_and_revive_loses_nothing_and_a_retry_completes(
        gz: Gz, gz_start: GzProcess, project: Path, agent: Any) -> None:
    agent("claude", "pass\n")
    session_id = gz("--json", "chat", "-p", "claude", "-i", "x", cwd=project).json["data"]["id"]
    worktree = project / ".harness" / "worktrees" / session_id
    deadline = time.monotonic() + 18
    rounds = 0
    while rounds < 3 or (rounds < 12 and time.monotonic() < deadline):
        rounds += 1
        expected = edit(worktree, rounds)
        killed_at_random(gz_start, project, "session", "pause", session_id)
        holds(project, session_id, worktree, expected)
        retried = gz("--json", "session", "pause", session_id, cwd=project)
        assert retried.exit_code == 0, retried.stderr
        assert not worktree.exists()
        holds(project, session_id, worktree, expected)
        killed_at_random(gz_start, project, "session", "revive", "--no-resume", session_id)
        revived = gz("--json", "session", "revive", "--no-resume", session_id, cwd=project)
        if revived.exit_code != 0:  # the killed one had finished: nothing left to revive
            assert revived.json["errors"][0]["code"] == "CONFLICT", revived.stdout
        assert git(worktree, "status", "--porcelain") == ""
        holds(project, session_id, worktree, expected)
    assert json.loads((project / ".harness" / "sessions" / f"{session_id}.json")
                      .read_text())["status"] == "completed"


@pytest.mark.usefixtures("claude")
def test_a_paused_session_merges_from_its_branch_and_prune_leaves_it_alone(
        gz: Gz, project: Path) -> None:
    first = gz("--json", "chat", "-p", "claude", "-i", "edit things", cwd=project).json["data"]
    assert gz("session", "pause", first["id"], cwd=project).exit_code == 0

    pruned = gz("--json", "session", "prune", "--dry-run", cwd=project)
    merged = gz("--json", "session", "merge", first["id"], cwd=project)

    assert pruned.json["data"]["missing_worktrees"] == []
    assert merged.exit_code == 0, merged.stderr
    assert sorted(merged.json["data"]["files"]) == ["README", "gone.txt", "src/new.py"]
    assert (project / "src" / "new.py").read_text() == "print('new')\n"
    assert not (project / "gone.txt").exists()


PAUSER = """
import json
done = subprocess.run([sys.executable, "-m", "gzia", "--json", "session", "pause",
                       os.environ["TARGET"]], capture_output=True, text=True)
note("pause.json", json.dumps({"exit_code": done.returncode, "stdout": done.stdout,
                               "stderr": done.stderr}))
"""


@pytest.mark.usefixtures("claude")
def test_gz_ia_run_by_an_agent_pauses_another_session_despite_its_own_guardrails(
        gz: Gz, project: Path, agent: Any, notes: Path) -> None:
    target = gz("--json", "chat", "-p", "claude", "-i", "edit things", cwd=project).json["data"]
    agent("pauser", PAUSER)

    ran = gz("--json", "exec", "pauser", cwd=project, env={"TARGET": target["id"]})

    assert ran.exit_code == 0, ran.stderr
    pause = json.loads(wait_for_note(notes, "pause.json"))
    assert pause["exit_code"] == 0, pause["stdout"] + pause["stderr"]
    assert branch_files(project, target["id"]) == AGENT_WORK


@pytest.mark.usefixtures("claude")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_pause_says_where_the_work_is_in_both_languages(
        gz: Gz, project: Path, lang: str) -> None:
    first = gz("--json", "chat", "-p", "claude", "-i", "edit things", cwd=project).json["data"]
    sid = first["id"]

    paused = gz("session", "pause", sid, cwd=project, env={"GZ_LANG": lang})
    again = gz("session", "pause", sid, cwd=project, env={"GZ_LANG": lang})
    revived = gz("session", "revive", "--no-resume", sid, cwd=project, env={"GZ_LANG": lang})

    commit = git(project, "rev-parse", f"harness/{sid}")[:12]
    assert (paused.exit_code, again.exit_code, revived.exit_code) == (0, 0, 0)
    assert (paused.stdout, again.stdout, revived.stdout) == {
        "en": (f"✓ Session '{sid}' paused: its work is committed on harness/{sid} ({commit}) "
               f"and its worktree was removed; bring it back with gz-ia session revive {sid}\n",
               f"✧ Session '{sid}' is already paused.\n",
               f"✓ Session '{sid}' revived in {first['worktree_dir']}; its agent was not "
               f"started (gz-ia session resume {sid} starts it).\n"),
        "es": (f"✓ Sesión '{sid}' pausada: su trabajo está confirmado en harness/{sid} "
               f"({commit}) y se eliminó su worktree; recupérala con gz-ia session revive "
               f"{sid}\n",
               f"✧ La sesión '{sid}' ya está pausada.\n",
               f"✓ Sesión '{sid}' recuperada en {first['worktree_dir']}; su agente no se "
               f"inició (gz-ia session resume {sid} lo inicia).\n")}[lang]


@pytest.mark.usefixtures("claude")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_revive_refuses_when_the_paused_branch_is_gone(gz: Gz, project: Path, lang: str) -> None:
    sid = gz("--json", "chat", "-p", "claude", "-i", "edit", cwd=project).json["data"]["id"]
    assert gz("session", "pause", sid, cwd=project).exit_code == 0
    git(project, "branch", "-D", f"harness/{sid}")

    result = gz("--json", "session", "revive", sid, cwd=project, env={"GZ_LANG": lang})

    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["message"]) == ("NOT_FOUND", {
        "en": f"the branch harness/{sid} of paused session '{sid}' is gone: it held the "
              "session's work, so there is nothing to revive",
        "es": f"la rama harness/{sid} de la sesión pausada '{sid}' ya no existe: guardaba el "
              "trabajo de la sesión, así que no hay nada que recuperar"}[lang])
    assert not (project / ".harness" / "worktrees" / sid).exists()
    assert git(project, "branch", "--list", "harness/*") == ""
