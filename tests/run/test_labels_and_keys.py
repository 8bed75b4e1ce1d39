"""chat/exec --label and --idempotency-key: stored in the record, kept by resume, validated
before a start; one key starts one session, also when two starts race."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.idempotency import Payload, payload_of
from gzia.sessions.record import SessionRecord
from tests.conftest import Result
from tests.run.conftest import stored_record

Gz = Callable[..., Result]


def test_exec_labels_are_stored_and_kept_by_resume(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "print('ok')\n")
    first = gz("--json", "exec", "--label", "team=api", "--label", "run=7", "--", "done",
               cwd=repo)
    assert first.exit_code == 0, first.stderr
    record = first.json["data"]
    assert record["labels"] == {"team": "api", "run": "7"}
    assert stored_record(repo, record["id"])["labels"] == {"team": "api", "run": "7"}

    again = gz("--json", "resume", record["id"], cwd=repo)
    assert again.exit_code == 0, again.stderr
    assert again.json["data"]["labels"] == {"team": "api", "run": "7"}
    listed = gz("--json", "session", "list", "--label", "run=7", cwd=repo)
    assert [s["id"] for s in listed.json["data"]["sessions"]] == [record["id"]]


def test_exec_without_labels_records_null(gz: Gz, agent: Any, repo: Path) -> None:
    agent("done", "print('ok')\n")
    result = gz("--json", "exec", "--", "done", cwd=repo)
    assert result.exit_code == 0 and result.json["data"]["labels"] is None


@pytest.mark.parametrize(("command", "env", "message"), [
    (["exec", "--label", "bad key=1", "--", "done"], {},
     "invalid label 'bad key=1': expected key=value, the key 1-63 letters, digits or . _ - /"),
    (["chat", "-p", "shell", "--label", "a=1", "--label", "a=2"], {"GZ_LANG": "es"},
     "la clave de etiqueta 'a' aparece dos veces ('a=2')"),
])
def test_a_bad_label_starts_nothing(gz: Gz, repo: Path, command: list[str],
                                    env: dict[str, str], message: str) -> None:
    result = gz(*command, cwd=repo, env=env)
    assert result == Result(2, "", f"Error: {message}\n")
    assert not (repo / ".harness" / "sessions").exists() or not list(
        (repo / ".harness" / "sessions").glob("*.json"))


def session_files(repo: Path) -> list[Path]:
    return sorted((repo / ".harness" / "sessions").glob("*.json"))


def test_same_key_and_payload_returns_the_existing_session(gz: Gz, agent: Any,
                                                          repo: Path) -> None:
    agent("done", "print('ran')\n")
    first = gz("--json", "exec", "--idempotency-key", "job-1", "--label", "a=1", "--", "done",
               cwd=repo)
    assert first.exit_code == 0, first.stderr
    record = first.json["data"]
    assert record["idempotency_key"] == "job-1"

    again = gz("--json", "exec", "--idempotency-key", "job-1", "--label", "a=1", "--", "done",
               cwd=repo)
    assert again.exit_code == 0
    assert again.json == {"ok": True, "data": stored_record(repo, record["id"]), "errors": [],
                          "warnings": []}
    assert "ran" not in again.stderr  # nothing ran again
    assert len(session_files(repo)) == 1
    human = gz("exec", "--idempotency-key", "job-1", "--label", "a=1", "--", "done", cwd=repo,
               env={"GZ_LANG": "es"})
    assert human == Result(0, "", f"la sesión {record['id']} ya tiene esta clave de "
                                  "idempotencia (completada): no se inició nada\n")


@pytest.mark.parametrize(("second", "differs"), [
    (["exec", "--idempotency-key", "k", "--", "other"], ["command"]),
    (["exec", "--idempotency-key", "k", "--", "done", "arg"], ["command"]),
    (["chat", "-p", "shell", "--idempotency-key", "k"], ["command"]),
])
def test_same_key_with_another_payload_is_a_conflict(gz: Gz, agent: Any, repo: Path,
                                                     second: list[str],
                                                     differs: list[str]) -> None:
    agent("done", "print('ran')\n")
    agent("other", "print('other ran')\n")
    first = gz("--json", "exec", "--idempotency-key", "k", "--", "done", cwd=repo)
    session_id = first.json["data"]["id"]
    result = gz("--json", *second, cwd=repo)
    assert result.exit_code == 1
    assert result.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "IDEMPOTENCY_CONFLICT", "retryable": False, "hint": None,
        "message": f"idempotency key 'k' belongs to session {session_id}, started with "
                   f"another {', '.join(differs)}; nothing was started",
        "details": {"key": "k", "session_id": session_id, "differs": differs}}]}
    assert len(session_files(repo)) == 1
    spanish = gz(*second, cwd=repo, env={"GZ_LANG": "es"})
    assert spanish == Result(1, "", f"Error: la clave de idempotencia 'k' pertenece a la sesión "
                                    f"{session_id}, iniciada con otro valor de "
                                    f"{', '.join(differs)}; no se inició nada\n")


def test_a_permission_or_prompt_difference_is_a_conflict(gz: Gz, agent: Any,
                                                         repo: Path) -> None:
    agent("done", "print('ran')\n")
    first = gz("--json", "exec", "--idempotency-key", "p", "--", "done", cwd=repo)
    assert first.exit_code == 0
    sid = first.json["data"]["id"]
    stored = Payload.of_record(SessionRecord.from_json(stored_record(repo, sid)))
    asked = payload_of("shell", ["done"], "a task", str(repo), "autonomous")
    assert stored.differs_from(asked) == ["prompt", "permission"]


def test_only_labels_differ_returns_the_session_with_a_warning(gz: Gz, agent: Any,
                                                              repo: Path) -> None:
    agent("done", "print('ran')\n")
    first = gz("--json", "exec", "--idempotency-key", "m", "--label", "a=1", "--", "done",
               cwd=repo)
    session_id = first.json["data"]["id"]
    for env, message in (({}, f"session {session_id} holds this idempotency key with other "
                              "labels; it is returned as it is"),
                         ({"GZ_LANG": "es"}, f"la sesión {session_id} tiene esta clave de "
                                             "idempotencia con otras labels; se devuelve tal "
                                             "cual")):
        result = gz("--json", "exec", "--idempotency-key", "m", "--label", "a=2", "--", "done",
                    cwd=repo, env=env)
        assert result.exit_code == 0
        assert result.json["data"]["id"] == session_id
        assert result.json["data"]["labels"] == {"a": "1"}  # returned as it is
        assert result.json["warnings"] == [{
            "code": "IDEMPOTENCY_METADATA_DIFFERS", "message": message, "retryable": False,
            "hint": None, "details": {"session_id": session_id, "differs": ["labels"]}}]
    assert len(session_files(repo)) == 1


def test_a_key_is_free_again_once_its_session_is_deleted(gz: Gz, agent: Any,
                                                        repo: Path) -> None:
    agent("done", "print('ran')\n")
    first = gz("--json", "exec", "--idempotency-key", "d", "--", "done", cwd=repo)
    session_id = first.json["data"]["id"]
    agent("other", "print('other ran')\n")
    held = gz("--json", "exec", "--idempotency-key", "d", "--", "other", cwd=repo)
    assert held.json["errors"][0]["code"] == "IDEMPOTENCY_CONFLICT"
    assert gz("session", "delete", "--force", session_id, cwd=repo).exit_code == 0
    again = gz("--json", "exec", "--idempotency-key", "d", "--", "other", cwd=repo)
    assert again.exit_code == 0, again.stderr  # another payload now: the key was freed
    assert again.json["data"]["id"] != session_id
    assert "other ran" in again.stderr


def test_two_concurrent_starts_with_one_key_start_one_session(gz_start: Any, agent: Any,
                                                             repo: Path) -> None:
    """Run 6 rounds: both processes race through lookup and create every time."""
    agent("slow", "time.sleep(0.3)\nprint('ran')\n")
    for round_number in range(6):
        key = f"race-{round_number}"
        racers = [gz_start("--json", "exec", "--idempotency-key", key, "--", "slow", cwd=repo)
                  for _ in range(2)]
        documents = []
        for racer in racers:
            out, err = racer.communicate(timeout=60)
            assert racer.returncode == 0, err
            documents.append(json.loads(out))
        ids = {document["data"]["id"] for document in documents}
        holders = [path for path in session_files(repo)
                   if stored_record(repo, path.stem)["idempotency_key"] == key]
        assert len(ids) == 1 and len(holders) == 1, (round_number, ids, holders)


def test_a_bad_key_starts_nothing(gz: Gz, repo: Path) -> None:
    result = gz("exec", "--idempotency-key", "has space", "--", "true", cwd=repo)
    assert result == Result(2, "", "Error: invalid idempotency key 'has space': expected "
                                   "1-200 letters, digits or . _ : @ / + = -\n")


def test_a_background_start_with_a_held_key_returns_the_running_session(
        gz: Gz, agent: Any, repo: Path, notes: Path) -> None:
    agent("hold", "while not os.path.exists(os.path.join(os.environ['FAKE_NOTES'], 'go')):\n"
                  "    time.sleep(0.01)\n")
    agent("other", "print('other ran')\n")
    first = gz("--json", "exec", "-b", "--idempotency-key", "bg", "--label", "a=1", "--",
               "hold", cwd=repo)
    assert first.exit_code == 0, first.stderr
    session_id = first.json["data"]["id"]
    again = gz("--json", "exec", "-b", "--idempotency-key", "bg", "--label", "a=2", "--",
               "hold", cwd=repo)
    assert again.exit_code == 0, again.stderr
    assert (again.json["data"]["id"], again.json["data"]["status"]) == (session_id, "running")
    assert [w["code"] for w in again.json["warnings"]] == ["IDEMPOTENCY_METADATA_DIFFERS"]
    conflict = gz("--json", "exec", "-b", "--idempotency-key", "bg", "--", "other", cwd=repo)
    assert conflict.json["errors"][0]["code"] == "IDEMPOTENCY_CONFLICT"
    (notes / "go").write_text("go")
    waited = gz("--json", "session", "wait", "--timeout", "30", session_id, cwd=repo)
    assert waited.exit_code == 0, waited.stdout
    assert waited.json["data"]["sessions"][0]["status"] == "completed"
    assert len(session_files(repo)) == 1
