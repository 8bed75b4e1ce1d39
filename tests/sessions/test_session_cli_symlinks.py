"""gz-ia never writes or deletes through a symbolic link it did not create.

The links are planted as a repository or a copied project would bring them (a tracked
``.harness/worktrees`` link, a lock file linked elsewhere); each command is refused with
``SAFETY_BLOCK`` and the link's target is left exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import Project
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"
VICTIM = "0000000e"
"""A name of the session-id shape inside the link's target: what prune would remove."""


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A directory outside the project, holding something of the session-id shape."""
    target = tmp_path / "elsewhere"
    (target / VICTIM).mkdir(parents=True)
    (target / VICTIM / "precious.txt").write_text("not gz-ia's\n")
    return target


def _snapshot(directory: Path) -> dict[str, str]:
    return {str(path.relative_to(directory)): path.read_text() if path.is_file() else "/"
            for path in sorted(directory.rglob("*"))}


def _refused(cli: Cli, project: Project, *args: str) -> dict[str, Any]:
    done = cli("--json", *args, cwd=project.root)
    assert (done.exit_code, done.stderr) == (1, ""), done.stdout
    [error] = done.json["errors"]
    assert error["code"] == "SAFETY_BLOCK"
    return dict(error)


def _expected(link: Path, target: Path) -> dict[str, Any]:
    return {"code": "SAFETY_BLOCK", "retryable": False,
            "message": f"refusing to use {link}: it is a symbolic link (to {target}); gz-ia "
                       "never writes or deletes through a link it did not create",
            "hint": f"remove the link (rm {link}; its target stays as it is), then run the "
                    "command again",
            "details": {"path": str(link), "target": str(target)}}


def test_a_tracked_worktrees_link_is_refused_by_every_session_command(
        cli: Cli, project: Project, elsewhere: Path) -> None:
    make_session(project, SID)
    run_git(project.root, "worktree", "remove", "--force", str(project.worktrees_dir / SID))
    project.worktrees_dir.rmdir()
    project.worktrees_dir.symlink_to(elsewhere)
    run_git(project.root, "add", "-f", ".harness/worktrees")
    run_git(project.root, "commit", "-q", "-m", "a link in the repository")
    before = _snapshot(elsewhere)
    expected = _expected(project.worktrees_dir, elsewhere)
    for command in (("session", "prune"), ("session", "prune", "--force"),
                    ("session", "delete", SID), ("session", "delete", SID, "--force"),
                    ("session", "diff", SID), ("session", "merge", SID),
                    ("session", "list"), ("exec", "--", "true")):
        assert _refused(cli, project, *command) == expected, command
    assert _snapshot(elsewhere) == before
    assert (project.sessions_dir / f"{SID}.json").is_file()


@pytest.mark.parametrize("name", [".harness", ".harness/sessions", ".harness/logs",
                                  ".harness/session-files", ".harness/mcp",
                                  ".harness/idempotency"])
def test_a_linked_store_directory_is_refused(cli: Cli, project: Project, elsewhere: Path,
                                             name: str) -> None:
    link = project.root / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere)
    before = _snapshot(elsewhere)
    for command in (("exec", "--", "true"), ("session", "prune"), ("session", "list")):
        assert _refused(cli, project, *command) == _expected(link, elsewhere), command
    assert _snapshot(elsewhere) == before


def test_the_refusal_in_spanish(cli: Cli, project: Project, elsewhere: Path) -> None:
    project.harness_dir.symlink_to(elsewhere)
    done = cli("session", "prune", cwd=project.root, env=ES)
    assert (done.exit_code, done.stdout) == (1, "")
    link = project.harness_dir
    assert done.stderr == (
        f"Error: se rechaza usar {link}: es un enlace simbólico (a {elsewhere}); gz-ia nunca "
        "escribe ni borra a través de un enlace que no creó\n"
        f"elimina el enlace (rm {link}; su destino queda intacto) y vuelve a ejecutar el "
        "comando\n")


def test_a_lock_file_link_never_creates_its_target(cli: Cli, project: Project,
                                                   tmp_path: Path) -> None:
    make_session(project, SID)
    target = tmp_path / "created-by-nobody"
    lock = project.sessions_dir / f"{SID}.lock"
    lock.unlink(missing_ok=True)
    lock.symlink_to(target)
    for command in (("session", "delete", SID, "--force"), ("session", "merge", SID)):
        assert _refused(cli, project, *command) == _expected(lock, target), command
    assert not target.exists()
    assert (project.worktrees_dir / SID).is_dir()


def test_a_record_link_is_refused_not_read(cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID)
    record = project.sessions_dir / f"{SID}.json"
    target = tmp_path / "record.json"
    target.write_bytes(record.read_bytes())
    record.unlink()
    record.symlink_to(target)
    for command in (("session", "show", SID), ("session", "delete", SID, "--force")):
        assert _refused(cli, project, *command) == _expected(record, target), command
    assert target.is_file()


def test_an_events_link_is_never_written(cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID)
    target = tmp_path / "bashrc"
    target.write_text("export KEEP=1\n")
    events = project.sessions_dir / f"{SID}.events.jsonl"
    events.symlink_to(target)
    for command in (("session", "log", SID, "-a", "x", "-s", "READ"), ("session", "logs", SID),
                    ("session", "delete", SID, "--force")):
        assert _refused(cli, project, *command) == _expected(events, target), command
    assert target.read_text() == "export KEEP=1\n"
    assert (project.worktrees_dir / SID).is_dir()


def test_a_log_link_is_refused_by_delete_and_resume(cli: Cli, project: Project,
                                                    tmp_path: Path) -> None:
    done = cli("--json", "exec", "--", "true", cwd=project.root)
    session_id = done.json["data"]["id"]
    target = tmp_path / "profile"
    target.write_text("mine\n")
    log = project.logs_dir / f"{session_id}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.unlink(missing_ok=True)  # the run's own log (every run keeps one)
    log.symlink_to(target)
    record_before = (project.sessions_dir / f"{session_id}.json").read_text()
    for command in (("resume", session_id), ("session", "delete", session_id, "--force")):
        assert _refused(cli, project, *command) == _expected(log, target), command
    assert target.read_text() == "mine\n"
    assert (project.sessions_dir / f"{session_id}.json").read_text() == record_before


def test_a_worktree_link_is_refused_and_kept_by_prune(cli: Cli, project: Project,
                                                      elsewhere: Path) -> None:
    make_session(project, SID)
    worktree = project.worktrees_dir / SID
    run_git(project.root, "worktree", "remove", "--force", str(worktree))
    worktree.symlink_to(elsewhere / VICTIM)
    orphan = project.worktrees_dir / "0000000f"
    orphan.symlink_to(elsewhere / VICTIM)
    before = _snapshot(elsewhere)
    for command in (("session", "delete", SID, "--force"), ("session", "diff", SID),
                    ("session", "merge", SID), ("resume", SID)):
        assert _refused(cli, project, *command) == _expected(worktree, elsewhere / VICTIM), \
            command
    for flags in ((), ("--force",)):
        pruned = cli("--json", "session", "prune", *flags, cwd=project.root)
        assert pruned.exit_code == 0, pruned.stdout
        assert pruned.json["data"]["kept_worktrees"] == [
            {"id": "0000000f", "reason": "symlink", "path": str(orphan), "files": []}]
    human = cli("session", "prune", cwd=project.root, env=ES)
    assert "  ! Worktree huérfano conservado, es un enlace simbólico que gz-ia no creó: " \
           "0000000f; elimina el enlace tú mismo (su destino queda intacto)\n" in human.stdout
    assert _snapshot(elsewhere) == before
    assert orphan.is_symlink() and worktree.is_symlink()


def test_a_stale_record_with_a_lock_link_is_listed_as_lost_without_a_write(
        cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID, status="running", pid=2**22 + 7, pid_start_time="1")
    target = tmp_path / "created-by-nobody"
    lock = project.sessions_dir / f"{SID}.lock"
    lock.unlink(missing_ok=True)
    lock.symlink_to(target)
    stored = (project.sessions_dir / f"{SID}.json").read_text()
    listed = cli("--json", "session", "list", cwd=project.root)
    assert listed.exit_code == 0, listed.stdout
    assert [record["status"] for record in listed.json["data"]["sessions"]] == ["lost"]
    assert (project.sessions_dir / f"{SID}.json").read_text() == stored
    assert not target.exists()


def test_a_squash_merge_never_writes_its_message_through_a_link(
        cli: Cli, project: Project, tmp_path: Path) -> None:
    make_session(project, SID)
    commit_file(project.worktrees_dir / SID, "feature.txt", "feature\n", "agent: feature")
    target = tmp_path / "bashrc"
    target.write_text("export KEEP=1\n")
    (project.harness_dir / "merge-squash.msg").symlink_to(target)
    merged = cli("--json", "session", "merge", SID, "--squash", cwd=project.root)
    assert merged.exit_code == 0, merged.stdout
    assert target.read_text() == "export KEEP=1\n"
