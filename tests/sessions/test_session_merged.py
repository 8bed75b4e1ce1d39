"""A merged session reads ``merged`` (list, show) while its record keeps ``completed``;
the merge commit names the session (``-m`` sets the message); a merge without a git
identity says once that gz-ia committed as itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.conftest import Result
from tests.sessions.session_testkit import commit_file, make_session, run_git

Cli = Callable[..., Result]
SID = "abcdef01"


def _session(project: Project, **fields: object) -> Path:
    make_session(project, SID, **fields)
    worktree = project.worktrees_dir / SID
    commit_file(worktree, "feature.txt", "feature\n", "agent: feature")
    return worktree


def _subject(root: Path) -> str:
    return run_git(root, "log", "-1", "--format=%s").strip()


def test_list_and_show_say_merged_and_json_keeps_completed(cli: Cli, project: Project) -> None:
    _session(project)
    root = str(project.root)
    assert cli("session", "merge", SID, "-d", root).exit_code == 0

    listed = cli("session", "list", "-d", root).stdout.splitlines()[2]
    assert listed.split()[:4] == [SID, "-", "exited", "merged"]
    spanish = cli("session", "list", "-d", root, env={"GZ_LANG": "es"}).stdout.splitlines()[2]
    assert spanish.split()[:4] == [SID, "-", "terminado", "fusionada"]
    shown = cli("session", "show", SID, "-d", root).stdout.splitlines()
    assert shown[1].split() == ["Status:", "merged"]
    data = cli("session", "show", SID, "--json", "-d", root).json["data"]
    assert (data["status"], data["merged_at"] is not None) == ("completed", True)
    assert cli("session", "list", "--json", "--status", "completed",
               "-d", root).json["data"]["sessions"][0]["id"] == SID


def test_status_merged_selects_what_people_read_merged(cli: Cli, project: Project) -> None:
    """The list says ``merged``: ``--status merged`` finds it (``merged_at`` alone would not
    tell: a session finished again after its merge reads ``completed``)."""
    _session(project)
    make_session(project, "abcdef02")
    root = str(project.root)
    assert cli("session", "merge", SID, "-d", root).exit_code == 0

    def listed(*statuses: str) -> list[str]:
        options = [part for status in statuses for part in ("--status", status)]
        result = cli("session", "list", "--json", *options, "-d", root)
        assert result.exit_code == 0, result.stderr
        return [session["id"] for session in result.json["data"]["sessions"]]

    assert listed("merged") == [SID]
    assert sorted(listed("completed")) == ["abcdef01", "abcdef02"]  # the record's status
    assert listed("merged", "failed") == [SID]
    SessionStore(project).update(SID, lambda r: setattr(r, "finished_at",
                                                        "2999-01-01T00:00:00Z"))
    assert listed("merged") == []  # finished again since: new work, not merged


def test_a_session_finished_again_after_its_merge_is_not_merged() -> None:
    record = SessionRecord(id=SID, status="completed", finished_at="2026-03-01T10:00:00Z",
                           merged_at="2026-03-01T11:00:00Z")
    assert record.is_merged
    record.finished_at = "2026-03-01T12:00:00Z"  # resumed, finished with new work
    assert not record.is_merged
    record.status, record.finished_at = "failed", "2026-03-01T10:00:00Z"
    assert not record.is_merged


@pytest.mark.parametrize(("fields", "subject"), [
    ({"initial_prompt": "fix the login bug\nthen the tests"},
     "harness(abcdef01): fix the login bug"),
    ({"command": ["make", "test suite"]}, "harness(abcdef01): make 'test suite'"),
    ({"extras": {"name": "login  fix"}, "initial_prompt": "p"}, "harness(abcdef01): login fix"),
    ({}, "harness(abcdef01): merge session changes"),
    ({"initial_prompt": "x" * 100}, "harness(abcdef01): " + "x" * 52 + "…"),
])
def test_the_merge_commit_names_the_session(cli: Cli, project: Project, fields: dict[str, object],
                                            subject: str) -> None:
    _session(project, **fields)
    commit_file(project.root, "base.txt", "moved on\n", "base moved")  # a real merge commit
    assert cli("session", "merge", SID, "-d", str(project.root)).exit_code == 0
    assert _subject(project.root) == subject
    assert len(subject) <= 72


def test_message_option_sets_it_for_merge_and_squash(cli: Cli, project: Project) -> None:
    _session(project, initial_prompt="a prompt")
    commit_file(project.root, "base.txt", "moved on\n", "base moved")
    result = cli("session", "merge", SID, "--squash", "-m", "Add the feature (JIRA-7)",
                 "-d", str(project.root))
    assert result.exit_code == 0, result.stderr
    assert _subject(project.root) == "Add the feature (JIRA-7)"
    squashed = run_git(project.root, "log", "-1", "--format=%P").split()
    assert len(squashed) == 1  # one squash commit, one parent


def test_squash_default_names_the_session_too(cli: Cli, project: Project) -> None:
    _session(project, initial_prompt="tidy up")
    assert cli("session", "merge", SID, "--squash", "-d", str(project.root)).exit_code == 0
    assert _subject(project.root) == "harness(abcdef01): tidy up (squash)"


def test_an_empty_message_is_refused_before_anything_changes(cli: Cli, project: Project) -> None:
    _session(project)
    head = run_git(project.root, "rev-parse", "HEAD")
    result = cli("session", "merge", SID, "-m", "  ", "--json", "-d", str(project.root))
    assert (result.exit_code, result.json["errors"][0]["code"]) == (2, "INVALID_INPUT")
    assert result.json["errors"][0]["message"] == "the merge commit message is empty"
    assert run_git(project.root, "rev-parse", "HEAD") == head
    spanish = cli("session", "merge", SID, "-m", "", "-d", str(project.root),
                  env={"GZ_LANG": "es"})
    assert spanish.stderr == "Error: el mensaje del commit de fusión está vacío\n"


def test_without_a_git_identity_the_merge_says_so_once(cli: Cli, project: Project,
                                                       isolated_env: Path) -> None:
    worktree = _session(project)
    (worktree / "notes.txt").write_text("uncommitted\n")  # a safety commit, then the merge
    commit_file(project.root, "base.txt", "moved on\n", "base moved")
    (isolated_env / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    env = {"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": ""}
    result = cli("session", "merge", SID, "--json", "-d", str(project.root), env=env)

    assert result.exit_code == 0
    hint = ("set yours: git config --global user.name 'Your Name' && git config --global "
            "user.email you@example.com")
    assert result.json["warnings"] == [{
        "code": "NO_GIT_IDENTITY", "retryable": False, "hint": hint,
        "message": "git has no user.name/user.email here: the merge of session 'abcdef01' was "
                   f"committed as gz-ia <gz-ia@localhost>; {hint}",
        "details": {"id": SID, "name": "gz-ia", "email": "gz-ia@localhost"}}]
    author = run_git(project.root, "log", "-1", "--format=%an <%ae>").strip()
    assert author == "gz-ia <gz-ia@localhost>"
    assert SessionStore(project).load(SID).merged_at is not None


def test_the_identity_warning_in_human_mode_and_spanish(cli: Cli, project: Project,
                                                        isolated_env: Path) -> None:
    _session(project)
    commit_file(project.root, "base.txt", "moved on\n", "base moved")  # a merge commit
    (isolated_env / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    env = {"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": "", "GZ_LANG": "es"}
    result = cli("session", "merge", SID, "-d", str(project.root), env=env)
    assert result.exit_code == 0
    assert result.stderr == (
        "Aviso: git no tiene user.name/user.email aquí: la fusión de la sesión 'abcdef01' "
        "se confirmó como gz-ia <gz-ia@localhost>; configura la tuya: git config --global "
        "user.name 'Tu Nombre' && git config --global user.email tu@ejemplo.com\n")
    with_identity = _second_merge_without_warning(cli, project)
    assert with_identity.stderr == ""


def _second_merge_without_warning(cli: Cli, project: Project) -> Result:
    """With an identity (the repository's own config) nothing is said."""
    run_git(project.root, "config", "user.name", "Someone")
    run_git(project.root, "config", "user.email", "someone@example.invalid")
    make_session(project, "abcdef02")
    commit_file(project.worktrees_dir / "abcdef02", "more.txt", "more\n", "agent: more")
    return cli("session", "merge", "abcdef02", "-d", str(project.root),
               env={"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": ""})


def test_the_terminal_ui_row_and_colour_say_merged() -> None:
    from gzia.tui.rows import row_of
    from gzia.tui.status_colours import STATUS_COLOURS, colour_of

    record = SessionRecord(id=SID, status="completed", started_at="2026-03-01T10:00:00Z",
                           finished_at="2026-03-01T10:01:00Z",
                           merged_at="2026-03-01T11:00:00Z")
    assert row_of(record, 0.0, None)[2] == "merged"
    assert colour_of(record) == STATUS_COLOURS["merged"]
    record.merged_at = None
    assert (row_of(record, 0.0, None)[2], colour_of(record)) == (
        "completed", STATUS_COLOURS["completed"])
