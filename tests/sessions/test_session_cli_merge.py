"""session merge / get through the CLI, on real repositories."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import inject_file, workspace_of
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
SID = "abcdef01"


@pytest.fixture
def session(project: Project) -> Path:
    """A finished session whose agent committed one file and left one uncommitted."""
    make_session(project, SID)
    worktree = project.worktrees_dir / SID
    commit_file(worktree, "feature.txt", "feature\n", "agent: feature")
    (worktree / "notes.txt").write_text("uncommitted\n")
    return worktree


def _snapshot(directory: Path) -> tuple[str, str, str]:
    return (run_git(directory, "rev-parse", "HEAD"),
            run_git(directory, "status", "--porcelain", "--untracked-files=all"),
            run_git(directory, "diff", "HEAD"))


def test_merge_commits_worktree_work_then_merges(cli: Cli, project: Project,
                                                 session: Path) -> None:
    root = project.root
    result = cli("session", "merge", SID, "-d", str(root))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "✓ Merge completed successfully for session 'abcdef01'.\n"
        "Integrated files:\n  • feature.txt\n  • notes.txt\n"
        "Fast-forward of main: no merge commit was made.\n")
    assert (root / "notes.txt").read_text() == "uncommitted\n"
    log = run_git(session, "log", "--format=%s", "-2").splitlines()
    assert log == ["harness(abcdef01): session changes", "agent: feature"]
    assert run_git(root, "status", "--porcelain") == ""
    record = SessionStore(project).load(SID)
    assert record.merged_at is not None
    assert record.merged_commit == run_git(root, "rev-parse", f"harness/{SID}").strip()


def test_merge_json_and_then_up_to_date(cli: Cli, project: Project, session: Path) -> None:
    document = cli("session", "merge", SID, "--json", "-d", str(project.root)).json
    data = document["data"]
    assert data["files"] == ["feature.txt", "notes.txt"]
    assert (data["id"], data["branch"], data["into"]) == (SID, f"harness/{SID}", "main")
    assert (data["squash"], data["no_commit"], data["already_up_to_date"]) == (
        False, False, False)
    assert data["head"] == run_git(project.root, "rev-parse", "HEAD").strip()
    assert data["session"] == SessionStore(project).load(SID).to_json()
    again = cli("session", "get", SID, "-d", str(project.root), env=ES)
    assert again.stdout == (
        "✧ La rama ya está actualizada. No hay cambios pendientes para fusionar.\n")


def test_get_spanish_message(cli: Cli, project: Project, session: Path) -> None:
    result = cli("session", "get", SID, "-d", str(project.root), env=ES)
    assert result.stdout.splitlines()[0] == (
        "✓ Cambios del worktree traídos e integrados con éxito para la sesión 'abcdef01'.")


def test_squash_makes_one_commit(cli: Cli, project: Project, session: Path) -> None:
    before = run_git(project.root, "rev-parse", "HEAD").strip()
    assert cli("session", "merge", SID, "--squash", "-d", str(project.root)).exit_code == 0
    assert run_git(project.root, "log", "--format=%s", "-1").strip() == (
        "harness(abcdef01): merge session changes (squash)")
    assert run_git(project.root, "rev-parse", "HEAD~1").strip() == before


@pytest.mark.parametrize(("flags", "note"), [
    (("--squash", "--no-commit"),
     "Nota: Los cambios quedaron preparados en el stage sin comitear (--squash --no-commit)."),
    (("--no-commit",),
     "Nota: Los cambios quedaron preparados en el stage sin comitear (--no-commit)."),
])
def test_no_commit_stages_only(cli: Cli, project: Project, session: Path,
                               flags: tuple[str, ...], note: str) -> None:
    before = run_git(project.root, "rev-parse", "HEAD").strip()
    result = cli("session", "merge", SID, *flags, "-d", str(project.root), env=ES)
    assert result.stdout.splitlines()[-1] == note
    assert run_git(project.root, "rev-parse", "HEAD").strip() == before
    staged = run_git(project.root, "diff", "--cached", "--name-only").split()
    assert staged == ["feature.txt", "notes.txt"]
    assert SessionStore(project).load(SID).merged_at is None


def test_conflict_is_reported_before_touching_anything(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    commit_file(session, "README.md", "session version\n", "agent: readme")
    commit_file(root, "README.md", "base version\n", "user: readme")
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "CONFLICT"
    assert error["details"] == {"id": SID, "files": ["README.md"], "branch": f"harness/{SID}",
                                "worktree": str(session)}
    assert _snapshot(root) == base_before
    assert _snapshot(session) == wt_before  # not even the safety commit was made
    human = cli("session", "merge", SID, "-d", str(root), env=ES)
    assert human.stderr == (
        "Error: conflicto al fusionar cambios de la sesión 'abcdef01' en 1 archivo: "
        "README.md. No se modificó nada: la base y el worktree permanecen intactos "
        "(inspecciona con 'gz-ia session path abcdef01')\n"
        "resuelve en el worktree (git merge main allí) y reintenta gz-ia session merge abcdef01\n")
    assert _snapshot(root) == base_before


@pytest.mark.parametrize(("env", "expected"), [
    ({}, "Error: merging session 'abcdef01' would conflict in 2 files: README.md, b.txt. "
         "Nothing was changed: the base and the worktree are intact (inspect with 'gz-ia "
         "session path abcdef01')\n"),
    ({"GZ_LANG": "es"}, "Error: conflicto al fusionar cambios de la sesión 'abcdef01' en 2 "
                        "archivos: README.md, b.txt. No se modificó nada: la base y el "
                        "worktree permanecen intactos (inspecciona con 'gz-ia session path "
                        "abcdef01')\n"),
], ids=["en", "es"])
def test_a_conflict_in_several_files_counts_them_in_the_plural(
    cli: Cli, project: Project, session: Path, env: dict[str, str], expected: str
) -> None:
    root = project.root
    commit_file(root, "b.txt", "base\n", "user: add b")
    run_git(session, "merge", "-q", "main")
    commit_file(session, "README.md", "session edit\n", "agent: edit")
    commit_file(session, "b.txt", "session b\n", "agent: edit b")
    commit_file(root, "README.md", "base edit\n", "user: edit")
    commit_file(root, "b.txt", "base b\n", "user: edit b")
    human = cli("session", "merge", SID, "-d", str(root), env=env)
    assert human.exit_code == 1
    assert human.stderr.splitlines(keepends=True)[0] == expected


def test_conflict_with_uncommitted_worktree_work(cli: Cli, project: Project,
                                                 session: Path) -> None:
    commit_file(project.root, "notes.txt", "base notes\n", "user: notes")
    wt_before = _snapshot(session)
    result = cli("session", "merge", SID, "--squash", "--json", "-d", str(project.root))
    assert result.json["errors"][0]["details"]["files"] == ["notes.txt"]
    assert _snapshot(session) == wt_before


def test_dirty_base_is_refused(cli: Cli, project: Project, session: Path) -> None:
    (project.root / "scratch.txt").write_text("mine")
    result = cli("session", "merge", SID, "-d", str(project.root), env=ES)
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: el repositorio base ('{project.root}') tiene modificaciones o archivos sin "
        "comitear: scratch.txt.\nPor favor realiza commit o stash antes de integrar los cambios "
        "de la sesión para evitar pérdida accidental de datos\n")
    document = cli("session", "merge", SID, "--json", "-d", str(project.root)).json
    assert document["errors"][0]["code"] == "SAFETY_BLOCK"
    assert document["errors"][0]["details"]["files"] == ["scratch.txt"]
    assert run_git(session, "status", "--porcelain") == "?? notes.txt\n"


@pytest.mark.parametrize(("env", "named"), [
    ({}, "untracked files: f00.txt, f01.txt, f02.txt, f03.txt, f04.txt, f05.txt, f06.txt, "
         "f07.txt, f08.txt, f09.txt and 3 more.\nCommit or stash"),
    (ES, "sin comitear: f00.txt, f01.txt, f02.txt, f03.txt, f04.txt, f05.txt, f06.txt, f07.txt, "
         "f08.txt, f09.txt y 3 más.\nPor favor"),
])
def test_a_dirty_base_names_its_files_ten_at_most(cli: Cli, project: Project, session: Path,
                                                 env: dict[str, str], named: str) -> None:
    for number in range(13):
        (project.root / f"f{number:02}.txt").write_text("mine")
    result = cli("session", "merge", SID, "-d", str(project.root), env=env)
    assert result.exit_code == 1 and named in result.stderr
    details = cli("session", "merge", SID, "--json", "-d", str(project.root)).json["errors"][0]
    assert details["details"]["files"] == [f"f{number:02}.txt" for number in range(13)]


def test_direct_session_cannot_be_merged(cli: Cli, tmp_path: Path) -> None:
    from gzia.sessions.project import find_project

    plain = tmp_path / "plain"
    plain.mkdir()
    make_session(find_project(plain), SID)
    result = cli("session", "merge", SID, "-d", str(plain), env=ES)
    assert (result.exit_code, result.stderr) == (1, (
        "Error: la sesión 'abcdef01' se ejecutó en modo directo y no cuenta con una rama de "
        "worktree aislada para fusionar\n"))


def test_running_session_is_not_merged(cli: Cli, project: Project) -> None:
    import os

    make_session(project, SID, status="running", pid=os.getpid())
    result = cli("session", "merge", SID, "--json", "-d", str(project.root))
    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "CONFLICT", "retryable": False, "hint": None,
        "message": f"session '{SID}' is still running (PID {os.getpid()}); wait for it to finish "
                   f"or stop it with 'gz-ia session kill {SID}'",
        "details": {"id": SID, "pid": os.getpid()}}]
    human = cli("session", "merge", SID, "-d", str(project.root), env=ES)
    assert (human.exit_code, human.stderr) == (1, (
        f"Error: la sesión '{SID}' sigue en ejecución (PID {os.getpid()}); espera a que termine o "
        f"detenla con 'gz-ia session kill {SID}'\n"))


@pytest.mark.parametrize("command", [
    ["merge"], ["merge", "--squash"], ["merge", "--no-commit"], ["get"], ["update"],
    ["push"], ["pr"], ["push", "--remote", "nowhere"],
])
def test_every_command_that_takes_a_sessions_work_refuses_it_while_it_runs(
        cli: Cli, project: Project, command: list[str]) -> None:
    """CONFLICT (not retryable: waiting alone does not end a session) that says it is still
    running, before anything else is looked at (a missing remote, say)."""
    import os

    make_session(project, SID, status="running", pid=os.getpid())
    result = cli("session", command[0], SID, *command[1:], "--json", "-d", str(project.root))
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["retryable"]) == ("CONFLICT", False)
    assert error["message"].startswith(f"session '{SID}' is still running")


def test_injected_files_never_reach_the_base_branch(cli: Cli, project: Project,
                                                    session: Path) -> None:
    record = SessionStore(project).load(SID)
    inject_file(workspace_of(project, record), "mcp.json", '{"token": "secret"}')
    (project.root / ".git" / "info" / "exclude").write_text("")  # even if the user cleared it
    assert cli("session", "merge", SID, "-d", str(project.root)).exit_code == 0
    tracked = run_git(project.root, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert tracked == ["README.md", "feature.txt", "notes.txt"]
    assert (session / ".harness-session" / "mcp.json").exists()


def test_merge_without_any_git_identity_uses_the_fallback(
    cli: Cli, project: Project, session: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    home = tmp_path / "bare-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("EMAIL", "")
    config_before = (project.root / ".git" / "config").read_text()
    assert cli("session", "merge", SID, "-d", str(project.root)).exit_code == 0
    author = run_git(session, "log", "-1", "--format=%an <%ae>").strip()
    assert author == "gz-ia <gz-ia@localhost>"
    assert (project.root / ".git" / "config").read_text() == config_before
    assert not (home / ".gitconfig").exists()


def test_project_hooks_run_on_the_safety_commit(cli: Cli, project: Project,
                                                session: Path) -> None:
    hook = project.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'blocked by project policy' >&2\nexit 1\n")
    hook.chmod(0o755)
    result = cli("session", "merge", SID, "--json", "-d", str(project.root))
    assert result.exit_code == 1
    assert "blocked by project policy" in result.json["errors"][0]["message"]
    assert run_git(project.root, "log", "--format=%s").splitlines() == ["initial"]


def test_merge_after_the_base_moved_makes_a_merge_commit(cli: Cli, project: Project,
                                                         session: Path) -> None:
    commit_file(project.root, "base.txt", "base\n", "user: base")
    assert cli("session", "merge", SID, "-d", str(project.root)).exit_code == 0
    subjects = run_git(project.root, "log", "--format=%s", "-1").strip()
    assert subjects == "harness(abcdef01): merge session changes"
    parents = run_git(project.root, "rev-list", "--parents", "-1", "HEAD").split()
    assert len(parents) == 3


def test_an_unfinished_merge_in_the_base_is_left_alone(cli: Cli, project: Project,
                                                       session: Path) -> None:
    root = project.root
    run_git(root, "checkout", "-q", "-b", "other")
    commit_file(root, "other.txt", "other\n", "other")
    run_git(root, "checkout", "-q", "main")
    # The user's own merge, stopped before its commit; its tree is clean.
    run_git(root, "merge", "-q", "-s", "ours", "--no-commit", "other")
    assert run_git(root, "status", "--porcelain") == ""
    result = cli("session", "merge", SID, "--json", "-d", str(root), env=ES)
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["details"]["operation"]) == ("SAFETY_BLOCK", "merge")
    assert error["message"] == (
        f"el repositorio base ('{root}') tiene un merge en curso; termínalo o abórtalo antes "
        "de integrar la sesión")
    assert (root / ".git" / "MERGE_HEAD").exists()


def test_a_hook_that_rejects_the_merge_commit_leaves_the_base_as_it_was(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    commit_file(root, "base.txt", "base\n", "user: base")
    run_git(session, "add", "-A")
    run_git(session, "commit", "-q", "-m", "agent: notes")
    hook = root / ".git" / "hooks" / "commit-msg"
    hook.write_text('#!/bin/sh\ngrep -q "^JIRA-" "$1" || { echo "needs a ticket" >&2; exit 1; }\n')
    hook.chmod(0o755)
    head = run_git(root, "rev-parse", "HEAD")
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    assert "needs a ticket" in result.json["errors"][0]["message"]
    assert run_git(root, "rev-parse", "HEAD") == head
    assert run_git(root, "status", "--porcelain") == ""
    assert not (root / ".git" / "MERGE_HEAD").exists()


def test_a_hook_that_rejects_the_squash_commit_leaves_the_base_as_it_was(
    cli: Cli, project: Project, session: Path
) -> None:
    root = project.root
    run_git(session, "add", "-A")
    run_git(session, "commit", "-q", "-m", "agent: notes")
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'blocked by project policy' >&2\nexit 1\n")
    hook.chmod(0o755)
    head = run_git(root, "rev-parse", "HEAD")
    result = cli("session", "merge", SID, "--squash", "--json", "-d", str(root))
    assert result.exit_code == 1
    assert "blocked by project policy" in result.json["errors"][0]["message"]
    assert run_git(root, "rev-parse", "HEAD") == head
    assert run_git(root, "status", "--porcelain", "--untracked-files=all") == ""
    assert SessionStore(project).load(SID).merged_at is None


@pytest.mark.parametrize("flags", [(), ("--squash",), ("--no-commit",)])
def test_injected_files_the_agent_committed_are_refused(
    cli: Cli, project: Project, session: Path, flags: tuple[str, ...]
) -> None:
    """An agent that force-adds what gz-ia injected (a token in an MCP config) or writes
    into ``.harness/`` must not get those files onto the user's branch or into its store."""
    root = project.root
    for name in (".harness-session/mcp.json", ".harness/sessions/0badc0de.json"):
        (session / name).parent.mkdir(parents=True, exist_ok=True)
        (session / name).write_text('{"token": "secret"}\n')
        run_git(session, "add", "-f", name)
    run_git(session, "commit", "-q", "-m", "agent: oops")
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, *flags, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "SAFETY_BLOCK"
    assert error["details"] == {
        "id": SID, "branch": f"harness/{SID}",
        "files": [".harness-session/mcp.json", ".harness/sessions/0badc0de.json"]}
    assert _snapshot(root) == base_before
    assert _snapshot(session) == wt_before
    assert not (root / ".harness" / "sessions" / "0badc0de.json").exists()
    human = cli("session", "merge", SID, *flags, "-d", str(root), env=ES)
    assert human.stderr == (
        "Error: la sesión 'abcdef01' comiteó archivos que gz-ia inyectó o que son suyos "
        "(.harness-session/mcp.json, .harness/sessions/0badc0de.json); integrarlos los "
        "llevaría a su rama. No se modificó nada\n"
        "quítalos de los commits de harness/abcdef01 en el worktree "
        "(gz-ia session path abcdef01) y reintenta gz-ia session merge abcdef01\n")
    english = cli("session", "merge", SID, *flags, "-d", str(root))
    assert english.stderr == (
        "Error: session 'abcdef01' committed files that gz-ia injected or owns "
        "(.harness-session/mcp.json, .harness/sessions/0badc0de.json); merging would put "
        "them on your branch. Nothing was changed\n"
        "remove them from the commits of harness/abcdef01 in the worktree "
        "(gz-ia session path abcdef01), then run gz-ia session merge abcdef01 again\n")


def test_squash_merges_once_injected_files_are_removed_again(
    cli: Cli, project: Project, session: Path
) -> None:
    """With --squash only the final tree counts: a file added then removed is fine."""
    (session / ".harness-session").mkdir(exist_ok=True)
    (session / ".harness-session" / "mcp.json").write_text("{}\n")
    run_git(session, "add", "-f", ".harness-session/mcp.json")
    run_git(session, "commit", "-q", "-m", "agent: oops")
    run_git(session, "rm", "-q", "--cached", ".harness-session/mcp.json")
    run_git(session, "commit", "-q", "-m", "agent: undo")
    result = cli("session", "merge", SID, "--squash", "-d", str(project.root))
    assert result.exit_code == 0, result.stderr
    tracked = run_git(project.root, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert tracked == ["README.md", "feature.txt", "notes.txt"]


def test_a_worktree_moved_off_its_branch_is_refused(cli: Cli, project: Project,
                                                    session: Path) -> None:
    """The user switched the worktree to a branch of theirs: gz-ia must not commit the
    uncommitted work onto it and then report a merge that left that work out."""
    root = project.root
    run_git(session, "checkout", "-q", "-b", "experiment")
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "SAFETY_BLOCK"
    assert error["details"] == {"id": SID, "branch": f"harness/{SID}", "checked_out": "experiment",
                                "worktree": str(session)}
    assert (_snapshot(root), _snapshot(session)) == (base_before, wt_before)
    assert cli("session", "merge", SID, "-d", str(root), env=ES).stderr == (
        "Error: el worktree de la sesión 'abcdef01' no está en su rama harness/abcdef01 "
        "(tiene experiment); no se modificó nada\n"
        f"vuelve a la rama en el worktree (git -C {session} switch harness/abcdef01) y "
        "reintenta gz-ia session merge abcdef01\n")
    assert cli("session", "merge", SID, "-d", str(root)).stderr == (
        "Error: the worktree of session 'abcdef01' is not on its branch harness/abcdef01 "
        "(experiment is checked out); nothing was changed\n"
        f"switch it back (git -C {session} switch harness/abcdef01), then run "
        "gz-ia session merge abcdef01 again\n")


def test_conflicting_file_names_are_reported_as_they_are(cli: Cli, project: Project,
                                                         session: Path) -> None:
    """Not C-quoted by git ("\\303\\261 a.txt"): a script must be able to open them."""
    root = project.root
    commit_file(root, "ñ a.txt", "base\n", "user: add")
    run_git(session, "merge", "-q", "main")
    commit_file(session, "ñ a.txt", "session\n", "agent: edit")
    commit_file(root, "ñ a.txt", "base again\n", "user: edit")
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.json["errors"][0]["details"]["files"] == ["ñ a.txt"]


def test_an_unfinished_merge_in_the_worktree_is_left_alone(cli: Cli, project: Project,
                                                           session: Path) -> None:
    """The safety commit would conclude the user's conflicted merge, markers and all, and
    carry the markers onto the base branch."""
    root = project.root
    run_git(root, "checkout", "-q", "-b", "side")
    commit_file(root, "feature.txt", "side\n", "side: feature")
    run_git(root, "checkout", "-q", "main")
    run_git(session, "merge", "-q", "side", check=False)  # conflicts in feature.txt
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root), env=ES)
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["details"]["operation"]) == ("SAFETY_BLOCK", "merge")
    assert error["message"] == (
        f"el worktree de la sesión 'abcdef01' ({session}) tiene un merge en curso; termínalo "
        "o abórtalo allí antes de integrar la sesión")
    assert (_snapshot(root), _snapshot(session)) == (base_before, wt_before)
    english = cli("session", "merge", SID, "-d", str(root))
    assert english.stderr == (
        f"Error: the worktree of session 'abcdef01' ({session}) has a merge in progress; "
        "finish or abort it there before merging the session\n")


@pytest.mark.parametrize("flags", [(), ("--squash",)])
def test_ignored_files_in_the_base_are_never_overwritten(
    cli: Cli, project: Project, session: Path, flags: tuple[str, ...]
) -> None:
    """git treats ignored files as expendable: a session that commits its own ``.env``
    would silently replace the user's (their secrets, gone)."""
    root = project.root
    commit_file(root, ".gitignore", ".env\n", "user: ignore .env")
    (root / ".env").write_text("SECRET=mine\n")
    run_git(session, "merge", "-q", "main")
    (session / ".env").write_text("SECRET=agent\n")
    run_git(session, "add", "-f", ".env")
    run_git(session, "commit", "-q", "-m", "agent: env")
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, *flags, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert error["code"] == "SAFETY_BLOCK"
    assert error["details"] == {"id": SID, "root": str(root), "files": [".env"]}
    assert (root / ".env").read_text() == "SECRET=mine\n"
    assert (_snapshot(root), _snapshot(session)) == (base_before, wt_before)
    assert cli("session", "merge", SID, *flags, "-d", str(root), env=ES).stderr == (
        f"Error: integrar la sesión 'abcdef01' sobrescribiría archivos ignorados por git en "
        f"{root} (.env); no se modificó nada\n"
        "muévelos a otro sitio, o quítalos de los commits de la sesión, y reintenta "
        "gz-ia session merge abcdef01\n")
    assert cli("session", "merge", SID, *flags, "-d", str(root)).stderr == (
        f"Error: merging session 'abcdef01' would overwrite files git ignores in {root} "
        "(.env); nothing was changed\n"
        "move them aside, or remove them from the session's commits, then run "
        "gz-ia session merge abcdef01 again\n")


def test_one_merge_at_a_time_into_a_base(cli: Cli, project: Project, session: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A second merge waits; past the wait it is LOCKED (retryable) and touches nothing,
    so its undo can never abort or reset the first one's merge in progress."""
    import fcntl
    import os

    from gzia.sessions.merge import service as merge

    monkeypatch.setattr(merge, "MERGE_LOCK_TIMEOUT", 0.2)
    root = project.root
    base_before, wt_before = _snapshot(root), _snapshot(session)
    fd = os.open(project.harness_dir / "merge.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        result = cli("session", "merge", SID, "--json", "-d", str(root))
        spanish = cli("session", "merge", SID, "-d", str(root), env=ES)
    finally:
        os.close(fd)
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["retryable"], error["details"]) == (
        "LOCKED", True, {"root": str(root)})
    assert error["message"] == f"another gz-ia session merge into {root} is in progress; try again"
    assert spanish.stderr == (
        f"Error: otra integración de sesión de gz-ia en {root} está en curso; reintenta\n")
    assert (_snapshot(root), _snapshot(session)) == (base_before, wt_before)
    assert cli("session", "merge", SID, "-d", str(root)).exit_code == 0


def test_unresolved_conflicts_in_the_worktree_are_left_alone(cli: Cli, project: Project,
                                                             session: Path) -> None:
    """A conflicted ``git stash pop`` leaves no MERGE_HEAD, only unmerged entries: the
    safety commit would still take the conflict markers to the base."""
    root = project.root
    (session / "feature.txt").write_text("stashed\n")
    run_git(session, "stash", "-q")
    commit_file(session, "feature.txt", "committed\n", "agent: feature again")
    run_git(session, "stash", "pop", "-q", check=False)
    assert "UU feature.txt" in run_git(session, "status", "--porcelain")
    base_before, wt_before = _snapshot(root), _snapshot(session)
    result = cli("session", "merge", SID, "--json", "-d", str(root))
    assert result.exit_code == 1
    [error] = result.json["errors"]
    assert (error["code"], error["details"]["operation"]) == ("SAFETY_BLOCK", "merge")
    assert (_snapshot(root), _snapshot(session)) == (base_before, wt_before)
