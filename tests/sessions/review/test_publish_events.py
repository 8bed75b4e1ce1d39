"""Each merge, push and pull request opened, updated or merged is an event in the session's
log (docs/sessions.md, "Publishing"): one shape, ``metadata.type`` ``merge``, ``push`` or
``pull_request``, the answer's fields beside it, the action in the user's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fakes.pulls import PullsFake
from tests.sessions.review.conftest import SID, forgejo_env

ACTIONS = {
    "en": ("pushed harness/{sid} to origin", "pull request #1 opened: {url}",
           "pull request #1 updated: {url}", "pull request #1 merged: {url}"),
    "es": ("harness/{sid} subida a origin", "solicitud de fusión #1 abierta: {url}",
           "solicitud de fusión #1 actualizada: {url}", "solicitud de fusión #1 fusionada: {url}"),
}


def published(cli: Any, repo: Path) -> list[dict[str, Any]]:
    logs = cli("--json", "session", "logs", SID, "-d", str(repo))
    assert logs.exit_code == 0, logs.stderr
    return [e for e in logs.json["data"]["events"]
            if (e.get("metadata") or {}).get("type") in {"push", "pull_request"}]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_push_and_each_pull_request_step_is_an_event(cli: Any, repo: Path, session: Path,
                                                     forgejo_pulls: PullsFake,
                                                     lang: str) -> None:
    env = forgejo_env(forgejo_pulls, GZ_LANG=lang)
    pushed = cli("--json", "session", "push", SID, "-d", str(repo), env=env)
    assert pushed.exit_code == 0, pushed.stderr
    [push] = published(cli, repo)
    assert {k: push[k] for k in ("stage", "status", "agent_id")} == {
        "stage": "FINISH", "status": "OK", "agent_id": "gz-ia"}
    assert push["metadata"] == {"type": "push", **pushed.json["data"]}

    opened = cli("--json", "session", "pr", SID, "-d", str(repo), env=env)
    assert opened.exit_code == 0, opened.stdout + opened.stderr
    assert cli("session", "pr", SID, "--title", "Login", "-d", str(repo), env=env).exit_code == 0
    merged = cli("--json", "session", "pr", SID, "--merge", "-d", str(repo), env=env)
    assert merged.exit_code == 0, merged.stdout + merged.stderr

    events = published(cli, repo)
    url = opened.json["data"]["pull_request"]["url"]
    kinds = [(e["metadata"]["type"], e["metadata"].get("action")) for e in events]
    assert kinds == [("push", None), ("push", None), ("pull_request", "opened"),
                     ("push", None), ("pull_request", "updated"), ("pull_request", "merged")]
    push_text, *pr_texts = ACTIONS[lang]
    assert [e["action"] for e in events if e["metadata"]["type"] == "pull_request"] == [
        text.format(url=url) for text in pr_texts]
    assert events[0]["action"] == push_text.format(sid=SID)
    first = events[2]
    assert {k: first[k] for k in ("stage", "status", "agent_id")} == {
        "stage": "FINISH", "status": "OK", "agent_id": "gz-ia"}
    assert first["metadata"] == {"type": "pull_request", "action": "opened", "id": SID,
                                 **opened.json["data"]["pull_request"]}
    assert events[-1]["metadata"]["state"] == "merged"


@pytest.mark.parametrize(("lang", "action"), [("en", "merged harness/{sid} into main"),
                                              ("es", "harness/{sid} fusionada en main")])
def test_a_merge_is_an_event_of_the_same_shape(cli: Any, repo: Path, session: Path,
                                               lang: str, action: str) -> None:
    merged = cli("--json", "session", "merge", SID, "-d", str(repo), env={"GZ_LANG": lang})
    assert merged.exit_code == 0, merged.stdout + merged.stderr
    logs = cli("--json", "session", "logs", SID, "-d", str(repo))
    [event] = [e for e in logs.json["data"]["events"]
               if (e.get("metadata") or {}).get("type") == "merge"]
    data = merged.json["data"]
    assert (event["action"], event["stage"], event["status"], event["agent_id"]) == (
        action.format(sid=SID), "FINISH", "OK", "gz-ia")
    assert event["metadata"] == {"type": "merge", **{k: data[k] for k in (
        "id", "branch", "into", "squash", "no_commit", "already_up_to_date", "head",
        "safety_commit")}}
