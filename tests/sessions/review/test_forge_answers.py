"""``session pr`` and what the forge answers: TLS against ``SSL_CERT_FILE``, a forge that
cannot be reached, GitHub's errors and status, editing an open pull request, the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.record import SessionRecord
from tests.fakes.pulls import PullsFake, start_pulls
from tests.sessions.review.conftest import SID, forgejo_env, github_env


@pytest.fixture
def forgejo_pulls_tls(tls_ca: Any) -> Iterator[PullsFake]:
    fake, server = start_pulls("forgejo", tls_ca)
    try:
        yield fake
    finally:
        server.stop()


def test_https_is_verified_against_ssl_cert_file(cli, repo: Path, session: Path,
                                                 forgejo_pulls_tls: PullsFake,
                                                 tls_ca_file: Path) -> None:
    env = forgejo_env(forgejo_pulls_tls)
    untrusted = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = untrusted.json["errors"][0]
    assert (untrusted.exit_code, error["code"], error["retryable"]) == (1, "NETWORK", True)
    assert "CERTIFICATE_VERIFY_FAILED" in error["message"]
    assert forgejo_pulls_tls.pulls == []
    trusted = cli("--json", "session", "pr", SID, "-d", str(repo),
                  env={**env, "SSL_CERT_FILE": str(tls_ca_file)})
    assert trusted.exit_code == 0, trusted.stdout
    assert trusted.json["data"]["pull_request"]["url"].startswith("https://127.0.0.1:")


def test_a_forge_that_cannot_be_reached_is_network(cli, repo: Path, session: Path,
                                                   dead_url: str) -> None:
    env = {"GZ_FORGEJO_URL": dead_url, "GZ_FORGEJO_TOKEN": "t0k3n-never-shown"}
    result = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = result.json["errors"][0]
    host = dead_url.removeprefix("http://")
    assert (error["code"], error["retryable"]) == ("NETWORK", True)
    assert error["message"].startswith(f"Forgejo at {host}: cannot connect to {host}")
    assert "t0k3n-never-shown" not in result.stdout + result.stderr


def test_github_answers_and_status(cli, repo: Path, session: Path,
                                   github_pulls: PullsFake) -> None:
    env = github_env(github_pulls)
    github_pulls.token = "other"
    refused = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = refused.json["errors"][0]
    host = f"127.0.0.1:{github_pulls.server.port}"
    assert (error["code"], error["message"]) == (
        "AUTH", f"GitHub at {host} refused the request (HTTP 401): Bad credentials")
    assert error["hint"].startswith("check github_token")
    github_pulls.token = env["GZ_GITHUB_TOKEN"]
    opened = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert opened.json["data"]["pull_request"]["forge"] == "GitHub"
    assert {r.arg("per_page") for r in github_pulls.requests if r.method == "GET"} == {"100"}
    github_pulls.pulls[0]["state"] = "closed"  # closed without merging
    closed = cli("--json", "session", "pr", SID, "--status", "-d", str(repo), env=env)
    record = closed.json["data"]["session"]
    assert (record["pull_request"]["state"], record["merged_at"]) == ("closed", None)


def test_title_and_body_given_again_edit_the_open_pull_request(
        cli, repo: Path, session: Path, tmp_path: Path, forgejo_pulls: PullsFake) -> None:
    env = forgejo_env(forgejo_pulls)
    assert cli("session", "pr", SID, "-d", str(repo), env=env).exit_code == 0
    body = tmp_path / "body.md"
    body.write_text("Reviewed by hand.\n")
    again = cli("--json", "session", "pr", SID, "--title", "Login: keep the user name",
                "--body-file", str(body), "-d", str(repo), env=env)
    assert again.json["data"]["created"] is False
    patches = [json.loads(r.body) for r in forgejo_pulls.requests if r.method == "PATCH"]
    assert patches == [{"title": "Login: keep the user name", "body": "Reviewed by hand.\n"}]
    missing = cli("--json", "session", "pr", SID, "--body-file", str(tmp_path / "none"),
                  "-d", str(repo), env=env)
    assert missing.json["errors"][0]["code"] == "INVALID_INPUT"


def test_status_of_a_session_without_a_pull_request(cli, repo: Path, session: Path,
                                                    forgejo_pulls: PullsFake) -> None:
    result = cli("--json", "session", "pr", SID, "--status", "-d", str(repo),
                 env=forgejo_env(forgejo_pulls))
    error = result.json["errors"][0]
    assert (error["code"], error["message"], error["hint"]) == (
        "NOT_FOUND", f"session '{SID}' has no pull request",
        f"open one with gz-ia session pr {SID}")
    assert forgejo_pulls.requests == []


def test_the_record_keeps_the_pull_request_and_old_records_load() -> None:
    pull = {"number": 7, "url": "https://f.example/a/b/pulls/7", "state": "open",
            "remote": "origin", "base": "main", "forge": "Forgejo"}
    record = SessionRecord(id=SID, pull_request=pull)
    again, _ = SessionRecord.from_text(record.to_text())
    assert again.pull_request == pull and again.extras == {}
    old = json.loads(SessionRecord(id=SID).to_text())
    assert "pull_request" not in old
    odd, _ = SessionRecord.from_text(json.dumps({**old, "pull_request": {"number": "7"}}))
    assert (odd.pull_request, odd.extras) == (None, {"pull_request": {"number": "7"}})


def test_the_open_pull_request_is_found_past_the_first_page(cli, repo: Path, session: Path,
                                                            forgejo_pulls: PullsFake) -> None:
    """Forgejo answers at most 50 a page and ignores ``?head=``: every page is read."""
    for number in range(55):
        forgejo_pulls.add_pull(f"feature/{number}")
    env = forgejo_env(forgejo_pulls)
    first = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert first.json["data"]["pull_request"]["number"] == 56
    again = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert (again.json["data"]["created"], again.json["data"]["pull_request"]["number"]) == (
        False, 56)
    pages = [r.arg("page") for r in forgejo_pulls.requests if r.method == "GET"]
    assert pages == ["1", "2", "3", "1", "2"]  # to the empty page; then until it is found


def test_a_refused_creation_is_a_conflict_and_bad_json_is_network(
        cli, repo: Path, session: Path, forgejo_pulls: PullsFake) -> None:
    fork = forgejo_pulls.add_pull(f"harness/{SID}")  # same branch name, from a fork
    fork["head"]["repo"]["full_name"] = "someone/widget"
    env = forgejo_env(forgejo_pulls)
    refused = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = refused.json["errors"][0]
    host = f"127.0.0.1:{forgejo_pulls.server.port}"
    assert (error["code"], error["message"]) == (
        "CONFLICT", f"Forgejo at {host} refused to open the pull request (HTTP 409): pull "
                    "request already exists for these targets")
    fork["state"] = "closed"
    forgejo_pulls.server.inject("bad_json", "/api/v1/repos/acme/widget/pulls", method="POST")
    broken = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    error = broken.json["errors"][0]
    assert (error["code"], error["message"]) == (
        "NETWORK", f"Forgejo at {host} sent an invalid JSON document")


def test_a_refused_token_in_spanish(cli, repo: Path, session: Path,
                                   forgejo_pulls: PullsFake) -> None:
    env = {**forgejo_env(forgejo_pulls), "GZ_LANG": "es"}
    forgejo_pulls.token = "another"
    result = cli("session", "pr", SID, "-d", str(repo), env=env)
    host = f"127.0.0.1:{forgejo_pulls.server.port}"
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: Forgejo en {host} rechazó la petición (HTTP 401): user does not exist [uid: 0, "
        "name: ]\nrevisa forgejo_token (gz-ia config set forgejo_token ..., o GZ_FORGEJO_TOKEN): "
        "necesita el alcance write:repository\n")
