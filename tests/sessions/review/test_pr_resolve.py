"""``session pr --merge --resolve-with-agent``: a pull request the forge will not merge
(Forgejo's 405) because its base moved on the remote is handed to a resolving session, as
``session update --resolve-with-agent`` hands a conflict; that session's pull request
carries the resolution."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.background.conftest import wait_final
from tests.background.test_resolve_with_agent import RESOLVER
from tests.fakes.pulls import PullsFake
from tests.sessions.review.conftest import SID, forgejo_env
from tests.sessions.session_testkit import commit_file, run_git
from tests.supervisor.conftest import notes
from tests.supervisor.fakes import write_agent

__all__ = ["notes"]


def moved_base(tmp_path: Path, remote: Path) -> str:
    """Someone else's commit on the remote's ``main``, changing what the session changed;
    its id."""
    other = tmp_path / "other"
    run_git(tmp_path, "clone", "-q", str(remote), str(other))
    commit_file(other, "login.py", "print('theirs')\n", "theirs: login")
    run_git(other, "push", "-q", "origin", "main")
    return run_git(other, "rev-parse", "HEAD").strip()


def test_a_pr_the_forge_cannot_merge_is_resolved_by_a_new_session(  # noqa: PLR0917 - pytest fixtures
        cli, tmp_path: Path, repo: Path, remote: Path, session: Path,
        forgejo_pulls: PullsFake, notes: Path) -> None:
    (tmp_path / "bin").mkdir()
    write_agent(tmp_path / "bin" / "claude", RESOLVER)
    env = {**forgejo_env(forgejo_pulls), "FAKE_NOTES": str(notes),
           "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    run_git(repo, "push", "-q", "origin", "main")
    assert cli("session", "pr", SID, "-d", str(repo), env=env).exit_code == 0
    local_main = run_git(repo, "rev-parse", "main").strip()
    theirs = moved_base(tmp_path, remote)
    forgejo_pulls.mergeable = False

    result = cli("--json", "session", "pr", SID, "--merge", "--resolve-with-agent", "-p",
                 "claude", "-d", str(repo), env=env)

    assert result.exit_code == 0, result.stdout + result.stderr
    data = result.json["data"]
    assert (data["id"], data["conflict"]) == (SID, {
        "files": ["login.py"], "base": "origin/main", "base_commit": theirs})
    resolver = data["resolver"]
    assert (resolver["labels"], resolver["base_branch"]) == ({"resolves": SID}, "main")
    assert wait_final(repo, resolver["id"])["status"] == "completed"
    assert json.loads((notes / "conflicted").read_text()) == ["login.py"]
    worktree = Path(resolver["worktree_dir"])
    tip, base = run_git(worktree, "log", "-1", "--format=%P").split()
    assert (base, tip) == (theirs, run_git(repo, "rev-parse", f"harness/{SID}").strip())
    assert run_git(repo, "rev-parse", "main").strip() == local_main  # nothing else moved
    assert run_git(remote, "rev-parse", "main").strip() == theirs

    published = cli("--json", "session", "pr", resolver["id"], "-d", str(repo), env=env)
    assert published.exit_code == 0, published.stdout + published.stderr
    assert published.json["data"]["pull_request"]["base"] == "main"
    pushed = f"harness/{resolver['id']}"
    assert run_git(remote, "merge-base", "--is-ancestor", theirs, pushed) == ""


def test_without_merge_the_flag_is_refused(cli, repo: Path, session: Path) -> None:
    for lang, message in (
            ("en", "--resolve-with-agent applies to --merge: it hands a conflict that stops "
                   "the merge to an agent"),
            ("es", "--resolve-with-agent se usa con --merge: entrega a un agente el conflicto "
                   "que detiene la fusión")):
        refused = cli("--json", "session", "pr", SID, "--resolve-with-agent", "-d", str(repo),
                      env={"GZ_LANG": lang})
        assert refused.exit_code == 2
        error = refused.json["errors"][0]
        assert (error["code"], error["message"]) == ("INVALID_INPUT", message)


def test_a_refusal_git_finds_no_conflict_for_stays_the_forges(
        cli, repo: Path, session: Path, forgejo_pulls: PullsFake) -> None:
    env = forgejo_env(forgejo_pulls)
    run_git(repo, "push", "-q", "origin", "main")
    assert cli("session", "pr", SID, "-d", str(repo), env=env).exit_code == 0
    forgejo_pulls.mergeable = False
    refused = cli("--json", "session", "pr", SID, "--merge", "--resolve-with-agent", "-d",
                  str(repo), env=env)
    assert refused.exit_code == 1
    error = refused.json["errors"][0]
    assert (error["code"], error["details"]["status"]) == ("CONFLICT", 405)
    assert run_git(repo, "branch", "--list", "harness/*").count("harness/") == 1
