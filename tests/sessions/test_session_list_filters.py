"""session list --status/--provider/--label/--since/--limit, labels in records and show."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from gzia.sessions.labels import parse_labels
from gzia.sessions.project import Project
from gzia.sessions.record import RecordFormatError, SessionRecord
from gzia.sessions.store import SessionStore
from tests.conftest import Result

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}
NOW = datetime.now(UTC)


def stamp(hours_ago: float) -> str:
    return (NOW - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture
def five(project: Project) -> Project:
    """Five finished sessions, newest first: a1 .. a5."""
    store = SessionStore(project)
    rows = [("a1000001", "completed", "shell", {"team": "api", "ci": "1"}, 1),
            ("a2000002", "failed", "claude", {"team": "api"}, 5),
            ("a3000003", "completed", "claude", {"team": "web"}, 30),
            ("a4000004", "killed", "shell", None, 50),
            ("a5000005", "lost", "opencode", {"team": "api", "ci": "1"}, 100)]
    for sid, status, provider, labels, hours in rows:
        store.create(SessionRecord(id=sid, status=status, provider=provider, labels=labels,
                                   started_at=stamp(hours), pid=1))
    return project


def listed(cli: Cli, project: Project, *args: str) -> list[str]:
    result = cli("--json", "session", "list", "-d", str(project.root), *args)
    assert result.exit_code == 0, result.stdout
    return [s["id"] for s in result.json["data"]["sessions"]]


@pytest.mark.parametrize(("args", "expected"), [
    ((), ["a1000001", "a2000002", "a3000003", "a4000004", "a5000005"]),
    (("--status", "completed"), ["a1000001", "a3000003"]),
    (("--status", "failed", "--status", "lost"), ["a2000002", "a5000005"]),
    (("--provider", "claude"), ["a2000002", "a3000003"]),
    (("--label", "team=api"), ["a1000001", "a2000002", "a5000005"]),
    (("--label", "team=api", "--label", "ci=1"), ["a1000001", "a5000005"]),
    (("--label", "team=api", "--status", "completed"), ["a1000001"]),
    (("--label", "team="), []),
    (("--since", "10h"), ["a1000001", "a2000002"]),
    (("--since", "2d", "--provider", "shell"), ["a1000001"]),
    (("--since", stamp(30)), ["a1000001", "a2000002", "a3000003"]),  # inclusive
    (("--limit", "5"), ["a1000001", "a2000002", "a3000003", "a4000004", "a5000005"]),
    (("--label", "team=api", "--limit", "3"), ["a1000001", "a2000002", "a5000005"]),
])
def test_filters_select_and_keep_newest_first(cli: Cli, five: Project, args: tuple[str, ...],
                                              expected: list[str]) -> None:
    assert listed(cli, five, *args) == expected


@pytest.mark.parametrize(("env", "message"), [
    ({}, "--limit 2 reached: more sessions match than are shown"),
    (ES, "se alcanzó --limit 2: hay más sesiones que cumplen el filtro"),
])
def test_a_limit_that_leaves_matches_out_warns(cli: Cli, five: Project, env: dict[str, str],
                                               message: str) -> None:
    result = cli("--json", "session", "list", "-d", str(five.root), "--label", "team=api",
                 "--limit", "2", env=env)
    assert result.exit_code == 0
    assert [s["id"] for s in result.json["data"]["sessions"]] == ["a1000001", "a2000002"]
    assert result.json["warnings"] == [{"code": "TAG_FILTER_SCAN_CAPPED", "message": message,
                                        "retryable": False, "hint": None,
                                        "details": {"limit": 2}}]
    human = cli("session", "list", "-d", str(five.root), "--limit", "2", env=env)
    prefix = "Aviso" if env else "Warning"
    assert human.exit_code == 0 and human.stderr == f"{prefix}: {message}\n"
    assert [row.split()[0] for row in human.stdout.splitlines()[2:]] == ["a1000001", "a2000002"]


@pytest.mark.parametrize(("args", "en", "es"), [
    (("--status", "done"),
     "invalid status 'done': expected one of running, completed, failed, killed, lost, paused, "
     "merged",
     "estado 'done' no válido: se esperaba uno de running, completed, failed, killed, lost, "
     "paused, merged"),
    (("--limit", "0"), "invalid --limit 0: expected 1 or more",
     "--limit 0 no válido: se esperaba 1 o más"),
    (("--since", "yesterday"),
     "invalid --since 'yesterday': expected an RFC 3339 time or a duration such as 30m, 2h, 7d",
     "--since 'yesterday' no válido: se esperaba una hora RFC 3339 o una duración como 30m, "
     "2h, 7d"),
    (("--label", "team"),
     "invalid label 'team': expected key=value, the key 1-63 letters, digits or . _ - /",
     "etiqueta 'team' no válida: se esperaba clave=valor, la clave de 1 a 63 letras, dígitos "
     "o . _ - /"),
])
def test_bad_filters_are_usage_errors(cli: Cli, five: Project, args: tuple[str, ...], en: str,
                                      es: str) -> None:
    for env, message in (({}, en), (ES, es)):
        result = cli("session", "list", "-d", str(five.root), *args, env=env)
        assert result == Result(2, "", f"Error: {message}\n")
    document = cli("--json", "session", "list", "-d", str(five.root), *args).json
    assert document["errors"][0]["code"] == "INVALID_INPUT"
    assert document["errors"][0]["details"]["option"] == args[0]


@pytest.mark.parametrize(("texts", "error"), [
    (["a=1", "a=2"], "label key 'a' given twice ('a=2')"),
    (["-x=1"], "invalid label '-x=1': expected key=value, the key 1-63 letters, digits or "
               ". _ - /"),
    ([f"k={'v' * 257}"], f"invalid label 'k={'v' * 257}': the value must be at most 256 "
                         "characters, without control characters"),
    (["k=a\x1bb"], "invalid label 'k=a\x1bb': the value must be at most 256 characters, "
                   "without control characters"),
    ([f"k{n}=v" for n in range(33)], "too many labels: at most 32"),
])
def test_label_validation(texts: list[str], error: str) -> None:
    from gzia.contract import InvalidInputError

    with pytest.raises(InvalidInputError) as raised:
        parse_labels(texts)
    assert raised.value.message == error


def test_labels_parse_in_order_and_allow_empty_values() -> None:
    assert parse_labels(["team=api", "run.id/x=a=b", "empty="]) == {
        "team": "api", "run.id/x": "a=b", "empty": ""}


def test_labels_of_the_wrong_type_make_a_record_unreadable() -> None:
    with pytest.raises(RecordFormatError):
        SessionRecord.from_json({"id": "abcdef01", "labels": {"team": 1}})
    assert SessionRecord.from_json({"id": "abcdef01", "labels": {"a": "b"}}).labels == {"a": "b"}


@pytest.mark.parametrize(("env", "line"), [({}, "Labels:"), (ES, "Etiquetas:")])
def test_show_prints_the_labels(cli: Cli, five: Project, env: dict[str, str],
                                line: str) -> None:
    result = cli("session", "show", "a1000001", "-d", str(five.root), env=env)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].split(None, 1) == [line, "team=api, ci=1"]
    document = cli("--json", "session", "show", "a1000001", "-d", str(five.root)).json
    assert document["data"]["labels"] == {"team": "api", "ci": "1"}
