"""session diff/read, delete/rm and prune through the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project, find_project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"


DELETED_EN = ("✓ Session 'abcdef01' deleted: its record, events and log, its worktree, its branch "
              "harness/abcdef01.\n")
DELETED_ES = ("✓ Sesión 'abcdef01' eliminada: su registro, sus eventos y su log, su worktree, su "
              "rama harness/abcdef01.\n")


@pytest.fixture
def worktree(project: Project) -> Path:
    make_session(project, SID)
    path = project.worktrees_dir / SID
    commit_file(path, "committed.txt", "one\n")
    (path / "README.md").write_text("hello\nchanged\n")
    (path / "untracked.txt").write_text("new\n")
    return path


def test_diff_shows_committed_modified_and_untracked(cli: Cli, project: Project,
                                                     worktree: Path) -> None:
    index = worktree.parent.parent.parent / ".git" / "worktrees" / SID / "index"
    index_before = index.read_bytes()
    result = cli("session", "diff", SID, "-d", str(project.root))
    assert result.exit_code == 0
    for expected in ("+++ b/committed.txt", "+changed", "+++ b/untracked.txt", "+new"):
        assert expected in result.stdout
    assert index.read_bytes() == index_before  # the agent's index was never touched
    assert run_git(worktree, "status", "--porcelain").splitlines() == [
        " M README.md", "?? untracked.txt"]


def test_diff_stat_and_json(cli: Cli, project: Project, worktree: Path) -> None:
    stat = cli("session", "read", SID, "--stat", "-d", str(project.root))
    assert stat.stdout == (
        " README.md     | 1 +\n committed.txt | 1 +\n untracked.txt | 1 +\n"
        " 3 files changed, 3 insertions(+)\n")
    data = cli("session", "diff", SID, "--json", "-d", str(project.root)).json["data"]
    base = run_git(project.root, "rev-parse", "main").strip()
    assert {k: data[k] for k in ("id", "is_isolated", "stat", "base", "files")} == {
        "id": SID, "is_isolated": True, "stat": False, "base": base,
        "files": ["README.md", "committed.txt", "untracked.txt"]}
    assert data["diff"].startswith("diff --git a/README.md b/README.md\n")


def test_diff_ignores_later_base_commits(cli: Cli, project: Project, worktree: Path) -> None:
    commit_file(project.root, "base-only.txt", "base\n")
    data = cli("session", "diff", SID, "--json", "-d", str(project.root)).json["data"]
    assert "base-only.txt" not in data["files"]


def test_diff_of_a_branch_whose_worktree_is_gone(cli: Cli, project: Project,
                                                 worktree: Path) -> None:
    run_git(project.root, "worktree", "remove", "--force", str(worktree))
    data = cli("session", "diff", SID, "--json", "-d", str(project.root)).json["data"]
    assert data["files"] == ["committed.txt"]


def test_diff_empty_and_direct_messages(cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID)
    assert cli("session", "diff", SID, "-d", str(project.root), env=ES).stdout == (
        "✧ No hay cambios registrados en la sesión.\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    make_session(find_project(plain), "0badc0de")
    result = cli("session", "diff", "0badc0de", "-d", str(plain), env=ES)
    assert (result.exit_code, result.stdout) == (0, (
        "La sesión se ejecutó en modo directo y no cuenta con diff aislado.\n"))
    assert cli("session", "diff", "0badc0de", "-d", str(plain)).stdout == (
        "The session ran in direct mode and has no isolated diff.\n")


def test_diff_without_worktree_or_branch(cli: Cli, project: Project) -> None:
    make_session(project, SID)
    run_git(project.root, "worktree", "remove", "--force", str(project.worktrees_dir / SID))
    run_git(project.root, "branch", "-D", f"harness/{SID}")
    result = cli("session", "diff", SID, "-d", str(project.root), env=ES)
    assert (result.exit_code, result.stderr) == (
        1, "Error: sesión 'abcdef01': worktree o rama no disponible\n")


def test_delete_refuses_unmerged_work_then_force(cli: Cli, project: Project,
                                                 worktree: Path) -> None:
    root = str(project.root)
    refused = cli("session", "delete", SID, "--json", "-d", root)
    assert refused.exit_code == 1
    [error] = refused.json["errors"]
    assert (error["code"], error["hint"]) == ("SAFETY_BLOCK", f"gz-ia session delete {SID} --force")
    assert error["details"] == {"id": SID, "unmerged_commits": 1,
                                "uncommitted_files": ["README.md", "untracked.txt"]}
    human = cli("session", "rm", SID, "-d", root, env=ES)
    assert human.stderr == (
        "Error: la sesión 'abcdef01' tiene trabajo que nunca se fusionó (1 commit sin "
        "fusionar, 2 archivos sin comitear); fusiónalo con 'gz-ia session merge abcdef01' o "
        "elimínala con --force\ngz-ia session delete abcdef01 --force\n")
    assert worktree.is_dir()
    forced = cli("session", "delete", SID, "--force", "--json", "-d", root)
    assert forced.json["data"] == {
        "id": SID, "deleted": True, "killed": False, "removed_worktree": True,
        "removed_branch": True, "discarded_commits": 1,
        "discarded_files": ["README.md", "untracked.txt"]}
    assert not worktree.exists()
    assert run_git(project.root, "branch", "--list", "harness/*") == ""
    assert run_git(project.root, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_delete_after_merge_needs_no_force(cli: Cli, project: Project, worktree: Path) -> None:
    root = str(project.root)
    store = SessionStore(project)
    store.events_path(SID).write_text('{"id": "x"}\n')
    assert cli("session", "merge", SID, "--squash", "-d", root).exit_code == 0
    result = cli("session", "delete", SID, "-d", root, env=ES)
    assert (result.exit_code, result.stdout) == (0, DELETED_ES)
    assert sorted(os.listdir(project.sessions_dir)) == []
    assert cli("session", "show", SID, "-d", root).exit_code == 1


def test_delete_counts_commits_made_on_a_detached_worktree_head(
    cli: Cli, project: Project
) -> None:
    """Commits the user made in the worktree after ``git checkout --detach`` are on no
    branch: removing the worktree would lose them (no reflog survives it)."""
    make_session(project, SID)
    path = project.worktrees_dir / SID
    run_git(path, "checkout", "-q", "--detach")
    commit_file(path, "detached.txt", "work\n", "user: detached work")
    refused = cli("session", "delete", SID, "--json", "-d", str(project.root))
    assert refused.exit_code == 1
    [error] = refused.json["errors"]
    assert (error["code"], error["details"]["unmerged_commits"]) == ("SAFETY_BLOCK", 1)
    assert (path / "detached.txt").is_file()


def test_delete_sees_uncommitted_files_whose_names_start_like_harness(
    cli: Cli, project: Project
) -> None:
    make_session(project, SID)
    (project.worktrees_dir / SID / ".harnessrc").write_text("mine\n")
    refused = cli("session", "delete", SID, "--json", "-d", str(project.root))
    assert refused.exit_code == 1
    assert refused.json["errors"][0]["details"]["uncommitted_files"] == [".harnessrc"]


def test_delete_clean_session_and_direct_session(cli: Cli, project: Project,
                                                 tmp_path: Path) -> None:
    make_session(project, SID)
    assert cli("session", "delete", SID, "-d", str(project.root)).stdout == DELETED_EN
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "keep.txt").write_text("user file")
    make_session(find_project(plain), "0badc0de")
    direct = cli("session", "delete", "0badc0de", "-d", str(plain))  # no worktree, no branch
    assert direct == Result(0, "✓ Session '0badc0de' deleted: its record, events and log.\n", "")
    assert (plain / "keep.txt").read_text() == "user file"


def test_delete_never_removes_a_path_taken_from_the_record(
    cli: Cli, project: Project, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep")
    make_session(project, SID)
    store = SessionStore(project)
    store.update(SID, lambda r: setattr(r, "worktree_dir", str(victim)))
    assert cli("session", "delete", SID, "--force", "-d", str(project.root)).exit_code == 0
    assert (victim / "precious.txt").read_text() == "keep"


def test_a_record_copied_under_another_name_is_never_acted_on(
    cli: Cli, project: Project, worktree: Path
) -> None:
    """delete --force c000000d must not delete abcdef01, whose record it is a copy of."""
    original = project.sessions_dir / f"{SID}.json"
    copy = project.sessions_dir / "c000000d.json"
    copy.write_bytes(original.read_bytes())
    for args in (["delete", "--force"], ["show"], ["merge"], ["path"]):
        result = cli("session", *args, "c000000d", "--json", "-d", str(project.root))
        assert result.exit_code == 1, args
        [error] = result.json["errors"]
        assert (error["code"], error["details"]) == (
            "IO", {"path": str(copy), "error": "id does not match file name"})
        assert error["hint"] == ("fix that file, or remove it and run gz-ia session prune to "
                                 "remove the session's worktree and branch")
    assert original.is_file() and worktree.is_dir()
    assert run_git(project.root, "branch", "--list", f"harness/{SID}").strip()
    human = cli("session", "show", "c000000d", "-d", str(project.root), env=ES)
    assert human.stderr == (
        f"Error: el registro de sesión {copy} no se puede leer: id does not match file name\n"
        "corrige ese archivo, o elimínalo y ejecuta gz-ia session prune para eliminar el "
        "worktree y la rama de la sesión\n")


def test_delete_running_session_is_refused(cli: Cli, project: Project) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        make_session(project, SID, status="running", pid=child.pid)
        result = cli("session", "delete", SID, "--json", "-d", str(project.root))
        assert result.exit_code == 1
        assert result.json["errors"][0]["code"] == "SAFETY_BLOCK"
        assert result.json["errors"][0]["details"] == {"id": SID, "pid": child.pid}
        assert SessionStore(project).exists(SID)
    finally:
        child.kill()
        child.wait()


def test_delete_of_a_stale_running_record_reconciles_then_deletes(
    cli: Cli, project: Project
) -> None:
    make_session(project, SID, status="running", pid=2**22 + 4321)
    assert cli("session", "delete", SID, "-d", str(project.root)).exit_code == 0
    assert not SessionStore(project).exists(SID)


def test_prune_removes_orphans_and_reports_missing_worktrees(cli: Cli, project: Project) -> None:
    root = project.root
    make_session(project, "00000001")
    make_session(project, "00000002")
    make_session(project, "00000003")
    (project.sessions_dir / "00000002.json").unlink()  # worktree + branch orphaned
    run_git(root, "branch", "harness/00000004")  # branch only
    run_git(root, "branch", "harness/feature")  # not a session branch: kept
    (project.worktrees_dir / "00000005").mkdir()  # stray directory
    (project.sessions_dir / "00000006.events.jsonl").write_text("{}\n")
    run_git(root, "worktree", "remove", "--force", str(project.worktrees_dir / "00000003"))
    (project.sessions_dir / "00000001.json").write_text("{damaged")  # still protects its tree
    make_session(project, "00000007")
    (project.sessions_dir / "00000007.json").unlink()  # orphaned, but made a moment ago
    hour_ago = time.time() - 3600
    for name in ("00000001", "00000002", "00000005"):
        os.utime(project.worktrees_dir / name, (hour_ago, hour_ago))
    head, short = (run_git(root, "rev-parse", *flag, "HEAD").strip() for flag in ([], ["--short"]))
    dry = cli("session", "prune", "--dry-run", "--json", "-d", str(root)).json["data"]
    young = {"id": "00000007", "reason": "young", "path": str(project.worktrees_dir / "00000007"),
             "files": []}
    expected = {"force": False, "removed_worktrees": ["00000002"], "discarded_files": [],
                "kept_worktrees": [young],
                "kept_branches": [], "removed_branches": ["harness/00000002", "harness/00000004"],
                "branch_tips": [{"branch": f"harness/0000000{n}", "commit": head,
                                 "on_other_branch": True,
                                 "recover": f"git branch harness/0000000{n} {head}"}
                                for n in (2, 4)],
                "removed_dirs": ["00000005"], "removed_events": ["00000006.events.jsonl"],
                "removed_locks": ["00000002.lock"], "missing_worktrees": ["00000003"]}
    assert dry == {"dry_run": True, **expected}
    assert (project.worktrees_dir / "00000002").is_dir()
    assert (project.sessions_dir / "00000002.lock").is_file()
    result = cli("session", "prune", "-d", str(root), env=ES)
    assert result.stdout == (
        "✧ Reconciliación de Basura Huérfana:\n"
        "  ✓ Worktree huérfano podado: 00000002\n"
        "  ! Worktree huérfano conservado, creado hace menos de un minuto (su sesión puede "
        "estar iniciándose): 00000007; vuelve a ejecutar gz-ia session prune más tarde\n"
        f"  ✓ Rama huérfana eliminada: harness/00000002 (era {short}); "
        f"recupérala con: git branch harness/00000002 {short}\n"
        f"  ✓ Rama huérfana eliminada: harness/00000004 (era {short}); "
        f"recupérala con: git branch harness/00000004 {short}\n"
        "  ✓ Directorio de worktree huérfano eliminado: 00000005\n"
        "  ✓ Registro de eventos huérfano eliminado: 00000006.events.jsonl\n"
        "  ✓ Archivo de bloqueo huérfano eliminado: 00000002.lock\n"
        "  ! La sesión 00000003 perdió su worktree (registro conservado)\n")
    assert sorted(os.listdir(project.worktrees_dir)) == ["00000001", "00000007"]
    assert run_git(root, "branch", "--list", "harness/*", "--format=%(refname:short)").split() == [
        "harness/00000001", "harness/00000003", "harness/00000007", "harness/feature"]
    again = cli("session", "prune", "--json", "-d", str(root)).json["data"]
    assert again == {"dry_run": False, "force": False, "removed_worktrees": [],
                     "discarded_files": [], "kept_worktrees": [young],
                     "kept_branches": [], "removed_branches": [],
                     "branch_tips": [], "removed_dirs": [], "removed_events": [],
                     "removed_locks": [], "missing_worktrees": ["00000003"]}


def test_prune_with_nothing_to_do(cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID)
    assert cli("session", "prune", "-d", str(project.root)).stdout == (
        "✓ No orphaned Git branches or worktrees found. Everything is in sync.\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    assert cli("session", "prune", "-d", str(plain), env=ES).stdout == (
        "✓ No se encontraron ramas de Git ni worktrees huérfanos. Todo está sincronizado.\n")


def _sleeping_agent() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                            start_new_session=True)


def test_force_delete_of_a_running_session_without_a_killer_refuses(
    cli: Cli, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gzia.sessions import delete

    monkeypatch.setattr(delete, "KILL_MODULE", "gzia.sessions.no_such_killer")
    agent = _sleeping_agent()
    try:
        make_session(project, SID, status="running", pid=agent.pid)
        result = cli("session", "delete", SID, "--force", "-d", str(project.root), env=ES)
        assert (result.exit_code, result.stderr) == (1, (
            f"Error: la sesión 'abcdef01' está en ejecución (PID {agent.pid}) y este gz-ia no "
            "puede detenerla; detén primero el agente\n"))
        assert agent.poll() is None
    finally:
        agent.kill()
        agent.wait()


def test_force_delete_stops_a_running_session_first(cli: Cli, project: Project) -> None:
    pytest.importorskip("gzia.sessions.kill")
    from gzia.supervisor.procinfo import process_start_time

    agent = _sleeping_agent()
    try:
        make_session(project, SID, status="running", pid=agent.pid, pgid=agent.pid,
                     pid_start_time=process_start_time(agent.pid))
        result = cli("session", "delete", SID, "--force", "--json", "-d", str(project.root))
        assert result.exit_code == 0, result.stdout
        assert result.json["data"]["killed"] is True
        assert agent.wait(timeout=5) != 0
        assert not SessionStore(project).exists(SID)
    finally:
        if agent.poll() is None:
            agent.kill()
        agent.wait()


def test_prune_keeps_a_session_branch_checked_out_in_the_main_worktree(
    cli: Cli, project: Project
) -> None:
    run_git(project.root, "checkout", "-q", "-b", "harness/0000000a")
    data = cli("session", "prune", "--dry-run", "--json", "-d", str(project.root)).json["data"]
    assert data["removed_branches"] == []
    assert cli("session", "prune", "--json", "-d", str(project.root)).json["data"][
        "removed_branches"] == []
    assert run_git(project.root, "rev-parse", "--abbrev-ref", "HEAD").strip() == (
        "harness/0000000a")


def test_a_command_run_from_a_removed_directory_says_so(
    cli: Cli, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typically a shell still sitting in a session worktree that ``delete`` removed."""
    make_session(project, SID)
    gone = project.worktrees_dir / SID
    assert cli("session", "delete", SID, "--json", "-d", str(project.root)).exit_code == 0
    gone.mkdir()
    monkeypatch.chdir(gone)
    monkeypatch.setenv("PWD", str(gone))
    gone.rmdir()
    result = cli("session", "list", "--json")
    assert result.exit_code == 2
    [error] = result.json["errors"]
    assert (error["code"], error["details"]) == ("INVALID_INPUT", {"dir": str(gone)})
    spanish = cli("session", "list", env=ES)
    assert spanish.stderr == f"Error: el directorio '{gone}' no existe\n"


def test_diff_never_shows_injected_files(cli: Cli, project: Project, worktree: Path) -> None:
    """They may hold credentials (an MCP server's token): even with the exclude entry gone."""
    from gzia.sessions.workspace import inject_file, workspace_of

    record = SessionStore(project).load(SID)
    inject_file(workspace_of(project, record), "mcp.json", '{"token": "s3cr3t"}')
    (project.root / ".git" / "info" / "exclude").write_text("")
    data = cli("session", "diff", SID, "--json", "-d", str(project.root)).json["data"]
    assert data["files"] == ["README.md", "committed.txt", "untracked.txt"]
    assert "s3cr3t" not in data["diff"]
    assert "s3cr3t" not in cli("session", "diff", SID, "-d", str(project.root)).stdout


def test_prune_forgets_only_missing_session_worktrees(cli: Cli, project: Project,
                                                      tmp_path: Path) -> None:
    """``git worktree prune`` would forget a user's worktree on an unmounted disk too; and
    ``--dry-run`` must change nothing at all."""
    root = project.root
    away = tmp_path / "usb" / "feature"
    run_git(root, "worktree", "add", "-q", "-b", "feature", str(away))
    parked = tmp_path / "parked"
    away.parent.rename(parked)  # the disk is unmounted
    make_session(project, SID)
    (project.sessions_dir / f"{SID}.json").unlink()
    os.rename(project.worktrees_dir / SID, tmp_path / "gone")  # orphan, and missing
    listed = run_git(root, "worktree", "list", "--porcelain")
    dry = cli("session", "prune", "--dry-run", "--json", "-d", str(root)).json["data"]
    assert dry["removed_branches"] == [f"harness/{SID}"]
    assert run_git(root, "worktree", "list", "--porcelain") == listed
    assert cli("session", "prune", "-d", str(root)).exit_code == 0
    after = run_git(root, "worktree", "list", "--porcelain")
    assert f"worktree {away}\n" in after
    assert str(project.worktrees_dir / SID) not in after
    assert run_git(root, "branch", "--list", f"harness/{SID}") == ""
    parked.rename(away.parent)
    assert run_git(away, "status", "--porcelain") == ""


def test_diff_shows_non_ascii_paths_as_they_are(cli: Cli, project: Project) -> None:
    """As merge and JSON show them, in the worktree's diff and in a branch's alone."""
    make_session(project, SID)
    path = project.worktrees_dir / SID
    commit_file(path, "dir ñ/añadido.txt", "uno\n")
    (path / "café.md").write_text("dos\n")
    expected = (" café.md           | 1 +\n dir ñ/añadido.txt | 1 +\n"
                " 2 files changed, 2 insertions(+)\n")
    assert cli("session", "diff", SID, "--stat", "-d", str(project.root)).stdout == expected
    full = cli("session", "diff", SID, "-d", str(project.root)).stdout
    assert "diff --git a/dir ñ/añadido.txt b/dir ñ/añadido.txt\n" in full
    assert "\\303" not in full
    run_git(project.root, "worktree", "remove", "--force", str(path))
    assert cli("session", "diff", SID, "--stat", "-d", str(project.root)).stdout == (
        " dir ñ/añadido.txt | 1 +\n 1 file changed, 1 insertion(+)\n")


@pytest.mark.parametrize(("env", "deleted"), [
    ({}, DELETED_EN), (ES, DELETED_ES),
])
def test_delete_after_squash_no_commit_and_the_users_commit_needs_no_force(
    cli: Cli, project: Project, worktree: Path, env: dict[str, str], deleted: str
) -> None:
    """The session's commits are on no branch, but its changes are in the base."""
    root = str(project.root)
    assert cli("session", "merge", SID, "--squash", "--no-commit", "-d", root).exit_code == 0
    refused = cli("session", "delete", SID, "--json", "-d", root)  # staged, not committed
    assert refused.json["errors"][0]["code"] == "SAFETY_BLOCK"
    run_git(project.root, "commit", "-q", "-m", "my own message for the session's work")
    assert cli("session", "delete", SID, "-d", root, env=env) == Result(0, deleted, "")
    assert run_git(project.root, "branch", "--list", "harness/*") == ""
    assert not worktree.exists()


def test_delete_still_refuses_when_the_base_dropped_part_of_a_squashed_session(
    cli: Cli, project: Project, worktree: Path
) -> None:
    root = str(project.root)
    assert cli("session", "merge", SID, "--squash", "-d", root).exit_code == 0
    store = SessionStore(project)
    store.update(SID, lambda r: setattr(r, "merged_commit", None))  # as if merged by hand
    run_git(project.root, "rm", "-q", "committed.txt")
    run_git(project.root, "commit", "-q", "-m", "drop one file of the session")
    refused = cli("session", "delete", SID, "--json", "-d", root)
    assert refused.json["errors"][0]["details"]["unmerged_commits"] == 2
