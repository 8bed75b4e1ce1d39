"""session prune --finished: finished sessions that lose nothing go; the rest is reported."""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from gzia.sessions.project import Project
from gzia.supervisor.procinfo import process_start_time
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
MERGED, UNCHANGED, UNMERGED, RUNNING, SQUASHED = (
    "0000000a", "0000000b", "0000000c", "0000000d", "0000000e")


@pytest.fixture
def sleeper() -> Iterator[int]:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    yield child.pid
    child.kill()
    child.wait()


@pytest.fixture
def sessions(cli: Cli, project: Project, sleeper: int) -> dict[str, str]:
    """Five sessions, and the tip of each session branch."""
    root = str(project.root)
    for sid in (MERGED, UNMERGED, SQUASHED):
        make_session(project, sid)
        commit_file(project.worktrees_dir / sid, f"{sid}.txt", f"work of {sid}\n")
    make_session(project, UNCHANGED, status="failed", exit_code=2)
    make_session(project, RUNNING, status="running", pid=sleeper,
                 pid_start_time=process_start_time(sleeper))
    assert cli("session", "merge", MERGED, "-d", root).exit_code == 0
    assert cli("session", "merge", SQUASHED, "--squash", "--no-commit", "-d", root).exit_code == 0
    run_git(project.root, "commit", "-q", "-m", "the user's own commit of the squash")
    return {sid: run_git(project.root, "rev-parse", f"harness/{sid}").strip()
            for sid in (MERGED, UNCHANGED, UNMERGED, RUNNING, SQUASHED)}


def _removed(sid: str, status: str, commit: str) -> dict[str, object]:
    return {"id": sid, "status": status, "branch": f"harness/{sid}", "commit": commit,
            "recover": f"git branch harness/{sid} {commit}", "discarded_commits": 0,
            "discarded_files": []}


def test_dry_run_then_prune_removes_only_what_loses_nothing(
    cli: Cli, project: Project, sessions: dict[str, str]
) -> None:
    root = str(project.root)
    before = sorted(p.name for p in project.sessions_dir.iterdir())
    dry = cli("session", "prune", "--finished", "--dry-run", "--json", "-d", root).json["data"]
    assert sorted(p.name for p in project.sessions_dir.iterdir()) == before
    expected = {
        "removed_sessions": [_removed(MERGED, "completed", sessions[MERGED]),
                             _removed(UNCHANGED, "failed", sessions[UNCHANGED]),
                             _removed(SQUASHED, "completed", sessions[SQUASHED])],
        "kept_sessions": [
            {"id": UNMERGED, "reason": "unmerged", "unmerged_commits": 1,
             "uncommitted_files": []},
            {"id": RUNNING, "reason": "running", "unmerged_commits": 0,
             "uncommitted_files": []}],
    }
    assert {key: dry[key] for key in expected} == expected
    assert dry["dry_run"] is True
    done = cli("session", "prune", "--finished", "--json", "-d", root).json["data"]
    assert {key: done[key] for key in expected} == expected
    assert done["removed_branches"] == [] and done["removed_worktrees"] == []
    listed = cli("session", "list", "--json", "-d", root).json["data"]["sessions"]
    assert sorted(r["id"] for r in listed) == [UNMERGED, RUNNING]
    assert run_git(project.root, "branch", "--list", "harness/*",
                   "--format=%(refname:short)").split() == [
        f"harness/{UNMERGED}", f"harness/{RUNNING}"]
    assert sorted(p.name for p in project.worktrees_dir.iterdir()) == [UNMERGED, RUNNING]
    for sid in (MERGED, UNCHANGED, SQUASHED):  # each branch comes back from the report
        recover = _removed(sid, "", sessions[sid])["recover"]
        subprocess.run(shlex.split(str(recover)), cwd=project.root, check=True)
        assert run_git(project.root, "rev-parse", f"harness/{sid}").strip() == sessions[sid]


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "✧ Orphan cleanup:\n"
         "  ✓ Finished session removed: 0000000a (completed)\n"
         "    harness/0000000a was {a}; recover it with: git branch harness/0000000a {a}\n"
         "  ✓ Finished session removed: 0000000b (failed)\n"
         "    harness/0000000b was {b}; recover it with: git branch harness/0000000b {b}\n"
         "  ✓ Finished session removed: 0000000e (completed)\n"
         "    harness/0000000e was {e}; recover it with: git branch harness/0000000e {e}\n"
         "  ! Session kept, it has unmerged work (1 unmerged commit): 0000000c; merge it "
         "with gz-ia session merge 0000000c, or remove it anyway with: gz-ia session prune "
         "--finished --force\n"
         "  ! Session kept, it is still running: 0000000d\n"),
    (ES, "✧ Reconciliación de Basura Huérfana:\n"
         "  ✓ Sesión terminada eliminada: 0000000a (completada)\n"
         "    harness/0000000a era {a}; recupérala con: git branch harness/0000000a {a}\n"
         "  ✓ Sesión terminada eliminada: 0000000b (fallida)\n"
         "    harness/0000000b era {b}; recupérala con: git branch harness/0000000b {b}\n"
         "  ✓ Sesión terminada eliminada: 0000000e (completada)\n"
         "    harness/0000000e era {e}; recupérala con: git branch harness/0000000e {e}\n"
         "  ! Sesión conservada, tiene trabajo sin fusionar (1 commit sin fusionar): "
         "0000000c; fusiónala con gz-ia session merge 0000000c, o elimínala de todos modos "
         "con: gz-ia session prune --finished --force\n"
         "  ! Sesión conservada, sigue en ejecución: 0000000d\n"),
], ids=["en", "es"])
def test_prune_finished_human_report(
    cli: Cli, project: Project, sessions: dict[str, str], env: dict[str, str], expected: str
) -> None:
    result = cli("session", "prune", "--finished", "-d", str(project.root), env=env)
    short = {name: sessions[sid][:12] for name, sid in (("a", MERGED), ("b", UNCHANGED),
                                                         ("e", SQUASHED))}
    assert result == Result(0, expected.format(**short), "")


def test_force_removes_unmerged_work_reports_it_and_the_branch_comes_back(
    cli: Cli, project: Project, sessions: dict[str, str], sleeper: int
) -> None:
    root = str(project.root)
    (project.worktrees_dir / UNMERGED / "draft.txt").write_text("not committed\n")
    done = cli("session", "prune", "--finished", "--force", "--json", "-d", root).json["data"]
    [removed] = [item for item in done["removed_sessions"] if item["id"] == UNMERGED]
    assert removed == {**_removed(UNMERGED, "completed", sessions[UNMERGED]),
                       "discarded_commits": 1, "discarded_files": ["draft.txt"]}
    assert done["kept_sessions"] == [{"id": RUNNING, "reason": "running",
                                      "unmerged_commits": 0, "uncommitted_files": []}]
    assert process_start_time(sleeper) is not None  # --force never stops a running session
    subprocess.run(shlex.split(removed["recover"]), cwd=project.root, check=True)
    assert run_git(project.root, "show", f"harness/{UNMERGED}:{UNMERGED}.txt") == (
        f"work of {UNMERGED}\n")


def test_without_finished_sessions_are_left_alone(
    cli: Cli, project: Project, sessions: dict[str, str]
) -> None:
    data = cli("session", "prune", "--json", "-d", str(project.root)).json["data"]
    assert "removed_sessions" not in data and "kept_sessions" not in data
    assert len(cli("session", "list", "--json", "-d", str(project.root)).json["data"][
        "sessions"]) == 5


def test_a_project_with_only_merged_sessions_ends_empty(cli: Cli, project: Project) -> None:
    make_session(project, MERGED)
    commit_file(project.worktrees_dir / MERGED, "a.txt", "a\n")
    root = str(project.root)
    assert cli("session", "merge", MERGED, "-d", root).exit_code == 0
    assert cli("session", "prune", "--finished", "-d", root).exit_code == 0
    assert cli("session", "prune", "--finished", "-d", root).stdout == (
        "✓ No orphaned Git branches or worktrees found. Everything is in sync.\n")
    assert list(project.sessions_dir.iterdir()) == []
    assert run_git(project.root, "worktree", "list", "--porcelain").count("worktree ") == 1


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "✧ Orphan cleanup:\n"
         "(dry run: what prune would do; nothing is removed)\n"
         "  - Would remove finished session: 0000000a (completed)\n"
         "    harness/0000000a is at {a}; it could be recovered with: "
         "git branch harness/0000000a {a}\n"
         "  - Would remove finished session: 0000000b (failed)\n"
         "    harness/0000000b is at {b}; it could be recovered with: "
         "git branch harness/0000000b {b}\n"
         "  - Would remove finished session: 0000000c (completed)\n"
         "    harness/0000000c is at {c}; it could be recovered with: "
         "git branch harness/0000000c {c}\n"
         "    ! Uncommitted work it would discard (1 file):\n"
         "      • draft.txt\n"
         "    ! Unmerged commits it would discard: 1\n"
         "  - Would remove finished session: 0000000e (completed)\n"
         "    harness/0000000e is at {e}; it could be recovered with: "
         "git branch harness/0000000e {e}\n"
         "  ! Session kept, it is still running: 0000000d\n"),
    (ES, "✧ Reconciliación de Basura Huérfana:\n"
         "(simulación: lo que haría prune; no se elimina nada)\n"
         "  - Se eliminaría la sesión terminada: 0000000a (completada)\n"
         "    harness/0000000a está en {a}; podría recuperarse con: "
         "git branch harness/0000000a {a}\n"
         "  - Se eliminaría la sesión terminada: 0000000b (fallida)\n"
         "    harness/0000000b está en {b}; podría recuperarse con: "
         "git branch harness/0000000b {b}\n"
         "  - Se eliminaría la sesión terminada: 0000000c (completada)\n"
         "    harness/0000000c está en {c}; podría recuperarse con: "
         "git branch harness/0000000c {c}\n"
         "    ! Trabajo sin comitear que se descartaría (1 archivo):\n"
         "      • draft.txt\n"
         "    ! Commits sin fusionar que se descartarían: 1\n"
         "  - Se eliminaría la sesión terminada: 0000000e (completada)\n"
         "    harness/0000000e está en {e}; podría recuperarse con: "
         "git branch harness/0000000e {e}\n"
         "  ! Sesión conservada, sigue en ejecución: 0000000d\n"),
], ids=["en", "es"])
def test_dry_run_lines_say_what_prune_finished_would_do(
    cli: Cli, project: Project, sessions: dict[str, str], env: dict[str, str], expected: str
) -> None:
    (project.worktrees_dir / UNMERGED / "draft.txt").write_text("not committed\n")
    before = sorted(p.name for p in project.sessions_dir.iterdir())
    result = cli("session", "prune", "--finished", "--force", "--dry-run",
                 "-d", str(project.root), env=env)
    short = {name: sessions[sid][:12] for name, sid in (
        ("a", MERGED), ("b", UNCHANGED), ("c", UNMERGED), ("e", SQUASHED))}
    assert result == Result(0, expected.format(**short), "")
    assert sorted(p.name for p in project.sessions_dir.iterdir()) == before
