"""session merge never leaves the base or the worktree half changed: a stop signal in the
middle of it, a detached base, a project hook that refuses a commit."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"
HOOK_STARTED_TIMEOUT = 20.0


@pytest.fixture
def session(project: Project) -> Path:
    """A finished session: one commit, a modified tracked file and an untracked one."""
    make_session(project, SID)
    worktree = project.worktrees_dir / SID
    commit_file(worktree, "feature.txt", "feature\n", "agent: feature")
    (worktree / "README.md").write_text("hello from the agent\n")
    (worktree / "notes.txt").write_text("uncommitted\n")
    return worktree


def state(directory: Path) -> dict[str, str]:
    """Everything a merge could change in a work tree: HEAD and its branch, the index (its
    bytes, read first, and its entries), the files, and git's merge state files."""
    index = Path(run_git(directory, "rev-parse", "--path-format=absolute", "--git-path",
                         "index").strip())
    git_dir = Path(run_git(directory, "rev-parse", "--absolute-git-dir").strip())
    return {
        "index_sha256": hashlib.sha256(index.read_bytes()).hexdigest(),
        "head": run_git(directory, "rev-parse", "HEAD"),
        "branch": run_git(directory, "symbolic-ref", "-q", "HEAD", check=False),
        "staged": run_git(directory, "ls-files", "--stage"),
        "status": run_git(directory, "--no-optional-locks", "status", "--porcelain",
                          "--untracked-files=all"),
        "diff": run_git(directory, "--no-optional-locks", "diff", "HEAD"),
        "merge_files": " ".join(name for name in ("MERGE_HEAD", "MERGE_MSG", "SQUASH_MSG")
                                if (git_dir / name).exists()),
        "orig_head": run_git(directory, "rev-parse", "-q", "--verify", "ORIG_HEAD", check=False),
    }


def write_hook(project: Project, name: str, body: str) -> None:
    hook = project.root / ".git" / "hooks" / name
    hook.write_text("#!/bin/sh\n" + body)
    hook.chmod(0o755)


def slow_hook(project: Project, name: str, where: Path, marker: Path) -> None:
    """A hook that, when git runs it in ``where`` (hooks are shared by every worktree),
    writes its pid and sleeps: gz-ia is stopped while it waits for it."""
    write_hook(project, name, f'if [ "$(pwd -P)" = "{where.resolve()}" ]; then\n'
                              f'  echo $$ > "{marker}"\n  exec sleep 30\nfi\nexit 0\n')


def gz_ia(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "gzia", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, start_new_session=True)


def stop_during_hook(child: subprocess.Popen[str], marker: Path,
                     signum: int) -> tuple[int, str, str, int]:
    """Wait for the hook to start, send ``signum`` to gz-ia; (exit code, out, err, hook pid)."""
    hook_pid = 0
    try:
        deadline = time.monotonic() + HOOK_STARTED_TIMEOUT
        while not (marker.exists() and marker.read_text().strip()):
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the hook never started"
            time.sleep(0.02)
        hook_pid = int(marker.read_text())
        child.send_signal(signum)
        out, err = child.communicate(timeout=30)
        return child.returncode, out, err, hook_pid
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
        if hook_pid and _alive(hook_pid):
            os.kill(hook_pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(FileNotFoundError):
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    return True


STOPPED = {
    signal.SIGTERM: (143, "TERMINATED"),
    signal.SIGINT: (130, "INTERRUPTED"),
}


@pytest.mark.parametrize(("case", "signum"), [
    pytest.param("merge-commit", signal.SIGTERM, id="merge-commit-SIGTERM"),
    pytest.param("merge-commit", signal.SIGINT, id="merge-commit-SIGINT"),
    pytest.param("squash-commit", signal.SIGTERM, id="squash-commit-SIGTERM"),
    pytest.param("safety-commit", signal.SIGTERM, id="safety-commit-SIGTERM"),
    pytest.param("after-fast-forward", signal.SIGTERM, id="after-fast-forward-SIGTERM"),
])
def test_a_stopped_merge_puts_the_base_and_the_worktree_back(
    project: Project, session: Path, tmp_path: Path, case: str, signum: int
) -> None:
    """SIGTERM/SIGINT to gz-ia while a slow hook runs: during the merge commit (MERGE_HEAD
    and the staged merge are there), the squash commit, the worktree's safety commit, or
    after a fast-forward moved the base branch (post-merge)."""
    root, marker = project.root, tmp_path / "hook.pid"
    flags: tuple[str, ...] = ()
    if case == "merge-commit":
        commit_file(root, "base.txt", "base\n", "user: base")  # no fast-forward
        slow_hook(project, "commit-msg", root, marker)
    elif case == "squash-commit":
        flags = ("--squash",)
        slow_hook(project, "pre-commit", root, marker)
    elif case == "safety-commit":
        slow_hook(project, "pre-commit", session, marker)
    else:
        slow_hook(project, "post-merge", root, marker)
    base_before, worktree_before = state(root), state(session)
    head = base_before["head"].strip()
    child = gz_ia("--json", "session", "merge", SID, *flags, "-d", str(root))
    exit_code, out, err, hook_pid = stop_during_hook(child, marker, signum)
    expected_exit, code = STOPPED[signum]
    assert (exit_code, err) == (expected_exit, "")
    assert json.loads(out) == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": code, "retryable": False, "hint": None,
        "message": f"the merge of session '{SID}' was stopped; {root} and the session's "
                   "worktree are back as they were",
        "details": {"id": SID, "root": str(root), "head": head, "restored": True,
                    "problems": []}}]}
    base_after = state(root)
    assert base_after.pop("index_sha256")  # git rewrote the index: its entries are compared
    base_before.pop("index_sha256")
    assert base_after == base_before
    assert state(session) == worktree_before
    assert not _alive(hook_pid)
    assert SessionStore(project).load(SID).merged_at is None
    assert not (root / ".git" / "index.lock").exists()


@pytest.mark.parametrize(("env", "message"), [
    ({}, "Error: the merge of session 'abcdef01' was stopped; {root} and the session's "
         "worktree are back as they were\n"),
    (ES, "Error: se detuvo la integración de la sesión 'abcdef01'; {root} y el worktree de "
         "la sesión quedaron como estaban\n"),
])
def test_a_stopped_merge_says_so_in_both_languages(
    project: Project, session: Path, tmp_path: Path, env: dict[str, str], message: str
) -> None:
    root, marker = project.root, tmp_path / "hook.pid"
    commit_file(root, "base.txt", "base\n", "user: base")
    slow_hook(project, "commit-msg", root, marker)
    base_before = state(root)["head"]
    child = gz_ia("session", "merge", SID, "-d", str(root), env=env)
    exit_code, out, err, _ = stop_during_hook(child, marker, signal.SIGTERM)
    assert (exit_code, out, err) == (143, "", message.format(root=root))
    assert state(root)["head"] == base_before
    assert not (root / ".git" / "MERGE_HEAD").exists()


def test_a_second_merge_after_a_stopped_one_succeeds(
    cli: Cli, project: Project, session: Path, tmp_path: Path
) -> None:
    root, marker = project.root, tmp_path / "hook.pid"
    slow_hook(project, "pre-commit", session, marker)
    child = gz_ia("--json", "session", "merge", SID, "-d", str(root))
    assert stop_during_hook(child, marker, signal.SIGTERM)[0] == 143
    (root / ".git" / "hooks" / "pre-commit").unlink()
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 0, result.stdout
    assert result.json["data"]["files"] == ["README.md", "feature.txt", "notes.txt"]


# A detached base


def test_a_detached_base_is_refused_and_nothing_is_touched(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    run_git(root, "checkout", "-q", "--detach")
    head = run_git(root, "rev-parse", "HEAD").strip()
    base_before, worktree_before = state(root), state(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    assert result.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"the base repository ('{root}') has no branch checked out (detached HEAD "
                   f"at {head[:12]}); no branch would keep the merged work. Nothing was "
                   "changed",
        "hint": f"check out the branch to merge into (git -C {root} switch main), then run "
                f"gz-ia session merge {SID} again",
        "details": {"id": SID, "root": str(root), "head": head[:12], "base_branch": "main"}}]}
    spanish = cli("session", "get", SID, "-d", str(root), env=ES)
    assert (spanish.exit_code, spanish.stdout) == (1, "")
    assert spanish.stderr == (
        f"Error: el repositorio base ('{root}') no tiene ninguna rama activa (HEAD separado "
        f"en {head[:12]}); ninguna rama conservaría el trabajo integrado. No se modificó "
        "nada\n"
        f"cambia a la rama en la que quieres integrar (git -C {root} switch main) y "
        f"reintenta gz-ia session merge {SID}\n")
    assert (state(root), state(session)) == (base_before, worktree_before)
    assert SessionStore(project).load(SID).merged_at is None
    run_git(root, "checkout", "-q", "main")
    refused = cli("session", "delete", SID, "--json", "-d", str(root))
    assert (refused.exit_code, refused.json["errors"][0]["code"]) == (1, "SAFETY_BLOCK")
    assert session.is_dir()


def test_a_detached_base_without_a_known_base_branch(cli: Cli, project: Project,
                                                     session: Path) -> None:
    def forget_base(record: object) -> None:
        record.base_branch = None  # type: ignore[attr-defined]

    SessionStore(project).update(SID, forget_base)
    run_git(project.root, "checkout", "-q", "--detach")
    english = cli("session", "merge", SID, "-d", str(project.root))
    assert english.stderr.splitlines()[-1] == (
        f"check out the branch to merge into (git -C {project.root} switch <branch>), then "
        f"run gz-ia session merge {SID} again")
    spanish = cli("session", "merge", SID, "-d", str(project.root), env=ES)
    assert spanish.stderr.splitlines()[-1] == (
        f"cambia a la rama en la que quieres integrar (git -C {project.root} switch <rama>) y "
        f"reintenta gz-ia session merge {SID}")


# Hooks that refuse a commit


REFUSE_NOTES = ('if git diff --cached --name-only | grep -qx notes.txt; then\n'
                '  echo "notes.txt is not allowed here" >&2\n  exit 1\nfi\nexit 0\n')


def test_a_hook_refusing_the_safety_commit_leaves_the_worktree_as_it_was(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    write_hook(project, "pre-commit", REFUSE_NOTES)
    worktree_before, base_before = state(session), state(root)
    assert worktree_before["status"] == " M README.md\n?? notes.txt\n"
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    assert result.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "SAFETY_BLOCK", "retryable": False,
        "message": f"a git hook (pre-commit) refused the commit of the uncommitted work in the "
                   f"worktree of session '{SID}' ({session}); nothing was changed. The hook "
                   "said: notes.txt is not allowed here",
        "hint": "fix what the hook reports in the worktree and commit there yourself, then "
                f"run gz-ia session merge {SID} again",
        "details": {"id": SID, "worktree": str(session), "hooks": ["pre-commit"],
                    "output": "notes.txt is not allowed here", "exit_code": 1}}]}
    assert state(session) == worktree_before
    assert state(root) == base_before
    spanish = cli("session", "merge", SID, "-d", str(root), env=ES)
    assert spanish.stderr == (
        f"Error: un hook de git (pre-commit) rechazó el commit del trabajo sin comitear en el "
        f"worktree de la sesión '{SID}' ({session}); no se modificó nada. El hook dijo: "
        "notes.txt is not allowed here\n"
        "corrige lo que indica el hook en el worktree y comitea allí tú mismo; luego "
        f"reintenta gz-ia session merge {SID}\n")
    assert state(session) == worktree_before


def test_a_hook_refusing_the_merge_commit_also_undoes_the_safety_commit(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    commit_file(root, "base.txt", "base\n", "user: base")
    write_hook(project, "commit-msg", f'[ "$(pwd -P)" = "{root.resolve()}" ] || exit 0\n'
                                      'echo "needs a ticket" >&2\nexit 1\n')
    worktree_before, base_before = state(session), state(root)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["details"]) == ("SAFETY_BLOCK", {
        "id": SID, "root": str(root), "hooks": ["commit-msg"], "output": "needs a ticket",
        "exit_code": 1})
    assert error["message"] == (
        f"a git hook (commit-msg) refused the merge commit of session '{SID}' in {root}; the "
        "base and the worktree are back as they were. The hook said: needs a ticket")
    assert error["hint"] == (
        f"fix what the hook asks for, or run gz-ia session merge {SID} --no-commit and commit "
        "yourself")
    assert state(session) == worktree_before
    after = state(root)
    assert (after.pop("index_sha256"), base_before.pop("index_sha256")) and after == base_before
    spanish = cli("session", "merge", SID, "-d", str(root), env=ES)
    assert spanish.stderr == (
        f"Error: un hook de git (commit-msg) rechazó el commit de integración de la sesión "
        f"'{SID}' en {root}; la base y el worktree quedaron como estaban. El hook dijo: "
        "needs a ticket\n"
        f"corrige lo que pide el hook, o ejecuta gz-ia session merge {SID} --no-commit y haz "
        "tú el commit\n")


def test_what_gz_ia_did_not_make_is_never_undone(cli: Cli, project: Project,
                                                 session: Path) -> None:
    """A hook that moves the base branch itself and then refuses: gz-ia does not reset the
    branch over a commit it did not make; it says what it could not put back, and how."""
    root = project.root
    commit_file(root, "base.txt", "base\n", "user: base")
    head = run_git(root, "rev-parse", "HEAD").strip()
    write_hook(project, "commit-msg", (
        f'[ "$(pwd -P)" = "{root.resolve()}" ] || exit 0\n'
        'c=$(git commit-tree "HEAD^{tree}" -p HEAD -m "user: meanwhile")\n'
        'git update-ref refs/heads/main "$c"\necho "$c" > .git/meanwhile\n'
        'echo "needs a ticket" >&2\nexit 1\n'))
    worktree_before = state(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    meanwhile = (root / ".git" / "meanwhile").read_text().strip()
    assert result.exit_code == 1
    problem = f"main moved to {meanwhile}, not by this merge (left as it is)"
    assert result.json["errors"] == [{
        "code": "IO", "retryable": False,
        "message": f"merging session '{SID}' failed (needs a ticket), and gz-ia could not put "
                   f"everything back as it was: {problem}",
        "hint": f"look with git -C {root} status; git -C {root} reset --merge {head} takes "
                "the base back to where it was before the merge",
        "details": {"id": SID, "root": str(root), "head": head, "restored": False,
                    "problems": [problem], "cause": "needs a ticket"}}]
    assert run_git(root, "rev-parse", "HEAD").strip() == meanwhile
    assert state(session) == worktree_before  # the worktree part was still put back


@pytest.mark.parametrize("moment", ["while the record is written", "right after"])
def test_a_stop_once_the_merge_is_recorded_keeps_it_and_reports_it(
    project: Project, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """From the moment the record says merged, a stop never undoes the merge: it ends
    with TERMINATED, and the envelope's data is the merge that was kept."""
    from gzia.contract import TerminatedError, TerminationRequested
    from gzia.sessions.merge import service as merge
    from gzia.supervisor.signals import SignalInbox

    make_session(project, "abcdef01")
    commit_file(project.worktrees_dir / "abcdef01", "done.txt", "work\n")
    record_merge = merge._record_merge

    def record_then_stop(*args: object, **kwargs: object) -> object:
        recorded = record_merge(*args, **kwargs)  # type: ignore[arg-type]
        if moment == "while the record is written":
            os.kill(os.getpid(), signal.SIGTERM)  # held by the merge until it is recorded
        else:  # as if the stop arrived once the merge's own handlers were gone
            monkeypatch.setattr(SignalInbox, "take_stop",
                                lambda self: (_ for _ in ()).throw(TerminationRequested()))
        return recorded

    monkeypatch.setattr(merge, "_record_merge", record_then_stop)
    store = SessionStore(project)
    with pytest.raises(TerminatedError) as stopped:
        merge.merge_session(store, store.load("abcdef01"))
    assert stopped.value.data["files"] == ["done.txt"]
    assert (project.root / "done.txt").read_text() == "work\n"  # kept, not undone
    assert store.load("abcdef01").merged_at is not None
    assert not (project.root / ".git" / "MERGE_HEAD").exists()
