"""``session push`` and ``session pr`` against a real bare repository and a forge's API on
127.0.0.1 (tests/fakes/pulls.py: Forgejo's quirks, GitHub's REST shape)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.fakes.proxy import ProxyProcess
from tests.fakes.pulls import PullsFake
from tests.sessions.review.conftest import PROMPT, SID, forgejo_env, github_env
from tests.sessions.session_testkit import commit_file, make_session, run_git


def remote_log(remote: Path, ref: str = f"harness/{SID}") -> list[str]:
    return run_git(remote, "log", "--format=%s", ref).splitlines()


def test_push_publishes_the_branch_with_the_uncommitted_work(cli, repo: Path, remote: Path,
                                                              session: Path) -> None:
    result = cli("--json", "session", "push", SID, "-d", str(repo))
    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    tip = run_git(remote, "rev-parse", f"harness/{SID}").strip()
    assert data == {"id": SID, "remote": "origin", "branch": f"harness/{SID}", "commit": tip,
                    "squash": False, "safety_commit": tip}
    # the commit of the uncommitted work names the session, as merge's does
    assert remote_log(remote) == [f"harness({SID}): fix the login bug", "fix login", "initial"]
    files = run_git(remote, "ls-tree", "--name-only", f"harness/{SID}").split()
    assert sorted(files) == ["README.md", "login.py", "notes.txt"]
    human = cli("session", "push", SID, "-d", str(repo))
    assert human.exit_code == 0
    assert human.stdout == (f"✓ Session '{SID}' pushed to origin as harness/{SID} "
                            f"({tip[:12]}).\n")


def test_push_squash_is_one_commit_on_the_base_and_the_same_commit_again(
        cli, repo: Path, remote: Path, session: Path) -> None:
    first = cli("--json", "session", "push", SID, "--squash", "-d", str(repo))
    assert first.exit_code == 0, first.stderr
    assert remote_log(remote) == [f"harness({SID}): fix the login bug", "initial"]
    again = cli("--json", "session", "push", SID, "--squash", "-d", str(repo))
    assert again.json["data"]["commit"] == first.json["data"]["commit"]
    commit_file(session, "more.py", "x = 1\n", "more")
    third = cli("--json", "session", "push", SID, "--squash", "-d", str(repo))
    assert third.exit_code == 0, third.stderr  # replaces the earlier squash
    assert remote_log(remote) == [f"harness({SID}): fix the login bug", "initial"]
    assert "more.py" in run_git(remote, "ls-tree", "--name-only", f"harness/{SID}")


def test_push_refuses_a_missing_remote_and_a_running_session(cli, repo: Path, project: Project,
                                                              session: Path) -> None:
    missing = cli("--json", "session", "push", SID, "--remote", "upstream", "-d", str(repo))
    assert missing.exit_code == 1
    error = missing.json["errors"][0]
    assert (error["code"], error["message"]) == (
        "NOT_FOUND", f"the repository {repo} has no remote named 'upstream'")
    make_session(project, "cd34ef56", status="running", pid=os.getpid())
    running = cli("--json", "session", "push", "cd34ef56", "-d", str(repo))
    assert running.json["errors"][0]["code"] == "CONFLICT"


def test_an_agent_inside_its_session_cannot_push_through_gz_ia(repo: Path, remote: Path,
                                                                project: Project,
                                                                session: Path) -> None:
    """The guardrails are the agent's: gz-ia's push neither lifts nor skips them."""
    from gzia.sessions.guard import SessionGuard, guarded_environment

    env = guarded_environment(project, SessionGuard(SID, session, allow_push=False),
                              dict(os.environ))
    done = subprocess.run([sys.executable, "-m", "gzia", "session", "push", SID],
                          cwd=session, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 1
    assert "[gz-ia GUARD] 'git push' is strictly forbidden" in done.stderr
    assert run_git(remote, "branch", "--list").strip() == ""


def test_pr_is_created_once_then_the_branch_is_updated(cli, repo: Path, remote: Path,
                                                       session: Path,
                                                       forgejo_pulls: PullsFake) -> None:
    forgejo_pulls.add_pull("feature/other")  # ?head= is ignored: the list holds it too
    env = forgejo_env(forgejo_pulls)
    first = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert first.exit_code == 0, first.stdout + first.stderr
    url = f"{forgejo_pulls.server_web}/acme/widget/pulls/2"
    data = first.json["data"]
    assert (data["created"], data["pull_request"]) == (True, {
        "number": 2, "url": url, "state": "open", "remote": "origin", "base": "main",
        "forge": "Forgejo"})
    assert data["session"]["pull_request"] == data["pull_request"]
    posts = [r for r in forgejo_pulls.requests if r.method == "POST"]
    created = json.loads(posts[0].body)
    assert created["title"] == "fix the login bug"
    assert created["head"] == f"harness/{SID}" and created["base"] == "main"
    assert created["body"].startswith(PROMPT + "\n\nAgent: shell\n\nSession: ab12cd34\n\n```\n")
    assert "login.py  | 1 +" in created["body"] and "2 files changed" in created["body"]

    commit_file(session, "more.py", "x = 1\n", "more work")
    second = cli("session", "pr", SID, "-d", str(repo), env=env)
    assert second.exit_code == 0, second.stderr
    assert second.stdout == (f"✓ Session '{SID}' pushed to origin; pull request #2 was already "
                             f"open: {url}\n")
    assert remote_log(remote)[0] == "more work"
    posts = [r for r in forgejo_pulls.requests if r.method == "POST"]
    assert len(posts) == 1
    assert len(forgejo_pulls.pulls) == 2


def test_pr_draft_is_a_wip_title_on_forgejo_and_the_draft_field_on_github(
        cli, repo: Path, session: Path, forgejo_pulls: PullsFake,
        github_pulls: PullsFake) -> None:
    done = cli("session", "pr", SID, "--draft", "--title", "Login fix", "--reviewer", "ana",
               "-d", str(repo), env=forgejo_env(forgejo_pulls))
    assert done.exit_code == 0, done.stderr
    pull = forgejo_pulls.pulls[0]
    assert (pull["title"], pull["draft"], pull["requested_reviewers"]) == (
        "WIP: Login fix", False, ["ana"])
    done = cli("session", "pr", SID, "--draft", "-d", str(repo), env=github_env(github_pulls))
    assert done.exit_code == 0, done.stderr
    pull = github_pulls.pulls[0]
    assert (pull["title"], pull["draft"]) == ("fix the login bug", True)
    auth = {r.headers.get("authorization") for r in github_pulls.requests}
    assert auth == {f"Bearer {github_pulls.token}"}


def test_status_refresh_and_a_merged_pr_marks_the_session_merged(
        cli, repo: Path, session: Path, forgejo_pulls: PullsFake) -> None:
    env = forgejo_env(forgejo_pulls)
    assert cli("session", "pr", SID, "-d", str(repo), env=env).exit_code == 0
    still = cli("--json", "session", "pr", SID, "--status", "-d", str(repo), env=env)
    assert still.json["data"]["pull_request"]["state"] == "open"
    assert still.json["data"]["session"]["merged_at"] is None
    forgejo_pulls.merge_on_server(1, "a" * 40)
    merged = cli("--json", "session", "pr", SID, "--status", "-d", str(repo), env=env)
    record = merged.json["data"]["session"]
    assert (record["pull_request"]["state"], record["merged_commit"]) == ("merged", "a" * 40)
    assert record["status"] == "completed" and record["merged_at"]
    listing = cli("session", "list", "-d", str(repo))
    row = listing.stdout.splitlines()[2]
    assert row.startswith(f"{SID}    #1 fix the login bu…  exited     merged")
    show = cli("session", "show", SID, "-d", str(repo))
    url = f"{forgejo_pulls.server_web}/acme/widget/pulls/1"
    assert f"Pull request: #1 merged {url}" in show.stdout.splitlines()
    human = cli("session", "pr", SID, "--status", "-d", str(repo), env=env)
    assert human.stdout == f"Pull request of session '{SID}': #1 merged {url}\n"
    es = cli("session", "pr", SID, "--status", "-d", str(repo), env={**env, "GZ_LANG": "es"})
    assert es.stdout == f"Solicitud de fusión de la sesión '{SID}': #1 fusionada {url}\n"


def test_merge_on_the_forge_marks_merged_and_a_405_is_a_conflict(  # noqa: PLR0917 - pytest fixtures
        cli, repo: Path, session: Path, store: SessionStore, forgejo_pulls: PullsFake,
        github_pulls: PullsFake) -> None:
    for fake, env in ((forgejo_pulls, forgejo_env(forgejo_pulls)),
                      (github_pulls, github_env(github_pulls))):
        assert cli("session", "pr", SID, "-d", str(repo), env=env).exit_code == 0
        fake.mergeable = False
        refused = cli("--json", "session", "pr", SID, "--merge", "-d", str(repo), env=env)
        assert refused.exit_code == 1
        error = refused.json["errors"][0]
        assert (error["code"], error["details"]["status"]) == ("CONFLICT", 405)
        fake.mergeable = True
        done = cli("--json", "session", "pr", SID, "--merge", "-d", str(repo), env=env)
        assert done.exit_code == 0, done.stdout
        assert done.json["data"]["session"]["merged_commit"] == "e" * 40
        store.update(SID, _forget_pull_request)


def _forget_pull_request(record: SessionRecord) -> None:
    record.pull_request = None
    record.merged_at = record.merged_commit = None


@pytest.mark.parametrize(("change", "status", "code", "message"), [
    ({"token": "wrong"}, 401, "AUTH",
     "Forgejo at {host} refused the request (HTTP 401): user does not exist [uid: 0, name: ]"),
    ({"writable": False}, 403, "AUTH",
     "Forgejo at {host} refused the request (HTTP 403): token does not have at least one of "
     "required scope(s): [write:repository]"),
    ({"repo": "other"}, 404, "NOT_FOUND",
     "Forgejo at {host} has no acme/widget or no such pull request, or the token may not see "
     "it (HTTP 404): The target couldn't be found."),
])
def test_auth_and_not_found_answers(  # noqa: PLR0917 - pytest fixtures and parameters
        cli, repo: Path, session: Path, forgejo_pulls: PullsFake, change: dict[str, object],
        status: int, code: str, message: str) -> None:
    env = forgejo_env(forgejo_pulls)
    for name, value in change.items():
        setattr(forgejo_pulls, name, value)
    result = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    host = f"127.0.0.1:{forgejo_pulls.server.port}"
    assert (error["code"], error["message"], error["details"]["status"]) == (
        code, message.format(host=host), status)
    assert forgejo_pulls.token not in result.stdout + result.stderr
    if code == "AUTH":
        assert error["hint"].startswith("check forgejo_token")


def test_the_token_is_never_in_argv_env_of_git_or_output(tmp_path: Path, repo: Path,
                                                           session: Path,
                                                           forgejo_pulls: PullsFake) -> None:
    """A real gz-ia process with the token in its environment: ``session pr`` keeps it (it
    sends it), git and the project's hooks never see it, and nothing prints it."""
    seen = tmp_path / "seen"
    hook = repo / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\ncat /proc/$PPID/cmdline /proc/$PPID/environ > {seen}\n"
                    f"env >> {seen}\nexit 0\n")
    hook.chmod(0o755)
    env = {**os.environ, **forgejo_env(forgejo_pulls)}
    done = subprocess.run([sys.executable, "-m", "gzia", "session", "pr", SID, "--debug"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "pull request #1 opened" in done.stdout
    token = forgejo_pulls.token
    assert token not in done.stdout + done.stderr
    assert b"push" in seen.read_bytes() and token.encode() not in seen.read_bytes()
    assert {r.headers.get("authorization") for r in forgejo_pulls.requests} == {
        f"token {token}"}
    log_dir = repo / ".harness"
    assert not any(token.encode() in p.read_bytes() for p in log_dir.rglob("*") if p.is_file())


ANCESTORS_HOOK = """#!/bin/sh
pid=$$
while [ "$pid" -gt 1 ]; do
  tr '\\0' '\\n' < /proc/$pid/cmdline; tr '\\0' '\\n' < /proc/$pid/environ
  pid=$(awk '{print $4}' /proc/$pid/stat)
done > "%s"
"""


def test_session_push_runs_without_gz_ias_credentials(tmp_path: Path, repo: Path,
                                                      session: Path) -> None:
    """Only ``session pr`` keeps the tokens: ``session push`` (like every other ``session``
    command) runs itself again without them, so no process above git holds one."""
    seen = tmp_path / "seen"
    hook = repo / ".git" / "hooks" / "pre-push"
    hook.write_text(ANCESTORS_HOOK % seen)
    hook.chmod(0o755)
    env = {**os.environ, "GZ_FORGEJO_TOKEN": "push-t0ken-value",
           "GZ_GITHUB_TOKEN": "gh-t0ken-value"}
    done = subprocess.run([sys.executable, "-m", "gzia", "session", "push", SID], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    text = seen.read_text(errors="replace")
    assert "gzia" in text and "GZ_WITHHELD=GZ_FORGEJO_TOKEN,GZ_GITHUB_TOKEN" in text
    assert "push-t0ken-value" not in text and "gh-t0ken-value" not in text


def test_requests_go_through_the_proxy(cli, repo: Path, session: Path,
                                       forgejo_pulls: PullsFake,
                                       http_proxy: ProxyProcess) -> None:
    mark = http_proxy.mark()
    env = forgejo_env(forgejo_pulls, HTTP_PROXY=http_proxy.url)
    done = cli("session", "pr", SID, "-d", str(repo), env=env)
    assert done.exit_code == 0, done.stderr
    port = forgejo_pulls.server.port
    assert f"127.0.0.1:{port}/api/v1/repos/acme/widget/pulls" in http_proxy.log_since(mark)


def test_plain_http_to_another_host_is_refused_before_any_push(cli, repo: Path, remote: Path,
                                                               session: Path) -> None:
    env = {"GZ_FORGEJO_URL": "http://forgejo.example/", "GZ_FORGEJO_TOKEN": "t0k"}
    done = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = done.json["errors"][0]
    assert (error["code"], error["message"]) == (
        "INVALID_INPUT", "refusing to send the Forgejo token to forgejo.example over plain http")
    assert run_git(remote, "branch", "--list").strip() == ""



def test_a_real_session_is_pushed_by_its_user_though_its_agent_could_not(
        cli, repo: Path, remote: Path) -> None:
    """The agent's own push is refused by its guardrails; the user's ``session push`` of
    the same session, after it, is not (the hooks are the agent's environment's only)."""
    work = ("echo work > work.txt && git add work.txt && git commit -q -m 'agent work' && "
            "git push origin HEAD; echo pushed=$?")
    started = cli("--json", "exec", "--", "sh", "-c", work, cwd=repo)
    session_id = started.json["data"]["id"]
    log = Path(started.json["data"]["log_path"]).read_text()
    assert "[gz-ia GUARD] 'git push' is strictly forbidden" in log and "pushed=1" in log
    assert run_git(remote, "branch", "--list").strip() == ""
    pushed = cli("--json", "session", "push", session_id, "-d", str(repo))
    assert pushed.exit_code == 0, pushed.stdout
    assert remote_log(remote, f"harness/{session_id}")[0] == "agent work"
