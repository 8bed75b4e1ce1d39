"""Hostile lines in a transcript (or rows of opencode's database): each is left out with a
warning, the good lines still count exactly, and the output is one RFC 8259 document."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.metrics.jsonl import MAX_CONTAINERS, MAX_LINE_BYTES, MAX_NESTING
from tests.conftest import Result
from tests.metrics.conftest import (
    FIXTURES,
    agent_env,
    direct_session,
    good_lines,
    strict_json,
    transcript_path,
)

Cli = Callable[..., Result]
DEEP = 10**6
BIG = "9" * 4300  # two of them add up past Python's 4300-digit limit for printing an int

USAGE = {
    "claude": '{{"type": "assistant", "sessionId": "s", "message": {{"id": "m{n}", '
              '"model": "claude-opus-4-8", "content": [], '
              '"usage": {{"input_tokens": {tokens}, "output_tokens": 4}}}}}}',
    "pi": '{{"type": "message", "message": {{"role": "assistant", "model": "m", "content": [], '
          '"usage": {{"input": {tokens}, "output": 4, "cost": {{"total": {cost}}}}}}}}}',
    "opencode": '{{"role": "assistant", "modelID": "m", "cost": {cost}, '
                '"tokens": {{"input": {tokens}, "output": 4}}}}',
}
"""A request whose input tokens (and cost) are given as JSON text, so any number fits."""

BAD_FIGURES = [(BIG, "0.25"), (BIG, "0.25"), ("-5", "0.25"), ("1e999", "0.25"),
               ("1", "1e999"), ("1", "-0.5")]
"""One figure of each request cannot be true: the rest of the request counts."""
NOT_JSON = [("NaN", "0.25"), ("-Infinity", "0.25")]
"""Lines RFC 8259 does not read as JSON: skipped whole."""


def usage_lines(agent: str) -> list[str]:
    figures = BAD_FIGURES if agent != "claude" else BAD_FIGURES[:4]  # Claude has no cost
    return [USAGE[agent].format(n=n, tokens=tokens, cost=cost)
            for n, (tokens, cost) in enumerate(figures + NOT_JSON)]


def shape_lines(agent: str) -> list[str]:
    """Nested a million deep, 5,000 deep (past the decoder's recursion), 101 deep (past
    the limit), 300,000 objects, and one line longer than the limit."""
    head = '{"type": "assistant", "x": ' if agent != "agy" else '{"type": "STEP", "x": '
    return [head + "[" * depth + "]" * depth + "}" for depth in (DEEP, 5000, 100)] + [
        head + "[" * 99 + "]" * 99 + "}",  # 100 deep with the line's own object: fine
        head + "[" + "{}, " * 300_000 + "{}]}",
        head + '"' + "a" * MAX_LINE_BYTES + '"}']


EXPECTED = {  # requests, input, output, cost_usd; then the warnings' reasons and counts
    "claude": ((5, 9, 20, None), [("unreadable_lines", 2), ("too_complex", 4),
                                  ("bad_values", 4), ("line_too_long", 1)]),
    "pi": ((7, 11, 28, 1.5), [("unreadable_lines", 2), ("too_complex", 4),
                              ("bad_values", 6), ("line_too_long", 1)]),
    "agy": ((1, 0, 4, None), [("unreadable_lines", 2), ("too_complex", 4),
                              ("line_too_long", 1)]),
}


def write_hostile(agent: str, home: Path, plain: Path) -> Path:
    lines = good_lines(agent) + shape_lines(agent)
    lines += usage_lines(agent) if agent != "agy" else [
        '{"type": "PLANNER_RESPONSE", "source": "MODEL", "content": "x", "n": NaN}',
        '{"type": "PLANNER_RESPONSE", "source": "MODEL", "content": "x", "n": -Infinity}']
    path = transcript_path(agent, home, plain)
    with path.open("w") as stream:  # a line at a time: the test never holds them all
        for line in lines:
            stream.write(line + "\n")
    return path


def figures(data: dict[str, Any]) -> tuple[object, ...]:
    return (data["requests"], data["tokens"]["input"], data["tokens"]["output"],
            data["cost_usd"])


@pytest.mark.parametrize("agent", ["claude", "pi", "agy"])
def test_hostile_lines_are_left_out_and_the_rest_counts(agent: str, tmp_path: Path,
                                                        isolated_env: Path, cli: Cli) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    direct_session(plain, "abcdef01", agent)
    path = write_hostile(agent, isolated_env, plain)
    expected, reasons = EXPECTED[agent]

    one = strict_json(cli("session", "metrics", "abcdef01", "--json", "-d", str(plain)).stdout)
    assert (one["ok"], figures(one["data"]["agent"])) == (True, expected)
    warned = [(w["code"], w["details"]["reason"], w["details"]["count"], w["details"]["path"])
              for w in one["warnings"]]
    assert warned == [("IO", reason, count, str(path)) for reason, count in reasons]

    every = strict_json(cli("metrics", "--json", "-d", str(plain)).stdout)
    assert figures(every["data"]["totals"]) == expected
    assert every["warnings"] == one["warnings"]
    human = cli("metrics", "-d", str(plain))
    assert human.exit_code == 0
    assert len(human.stderr.splitlines()) == len(reasons)


MESSAGES = {
    "en": [
        "session abcdef01: 2 lines of {path} are not JSON and were skipped",
        "session abcdef01: 4 lines of {path} nest deeper than 100 levels or hold more than "
        "262144 objects and arrays, and were skipped",
        "session abcdef01: 4 figures of {path} cannot be true (negative, fractional, "
        "infinite, not a number or too large) and were left out",
        "session abcdef01: 1 line of {path} is longer than 8 MiB and was skipped",
    ],
    "es": [
        "sesión abcdef01: 2 líneas de {path} no son JSON y se omitieron",
        "sesión abcdef01: 4 líneas de {path} anidan más de 100 niveles o contienen más de "
        "262144 objetos y arrays, y se omitieron",
        "sesión abcdef01: 4 cifras de {path} no pueden ser ciertas (negativas, "
        "fraccionarias, infinitas, no numéricas o demasiado grandes) y se dejaron fuera",
        "sesión abcdef01: 1 línea de {path} supera 8 MiB y se omitió",
    ],
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_warnings_in_both_languages(lang: str, tmp_path: Path, isolated_env: Path,
                                        cli: Cli) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    direct_session(plain, "abcdef01", "claude")
    path = write_hostile("claude", isolated_env, plain)
    env = {"GZ_LANG": lang}
    document = strict_json(cli("session", "metrics", "abcdef01", "--json", "-d", str(plain),
                               env=env).stdout)
    expected = [m.format(path=path) for m in MESSAGES[lang]]
    assert f" {MAX_NESTING} " in expected[1] and f" {MAX_CONTAINERS} " in expected[1]
    assert [w["message"] for w in document["warnings"]] == expected
    human = cli("session", "metrics", "abcdef01", "-d", str(plain), env=env)
    prefix = {"en": "Warning", "es": "Aviso"}[lang]
    assert human.stderr.splitlines() == [f"{prefix}: {m}" for m in expected]
    requests = [line.split()[-1] for line in human.stdout.splitlines()
                if line.startswith(("Requests:", "Peticiones:"))]
    assert (human.exit_code, requests) == (0, ["5"])


OPENCODE_DB = FIXTURES / "opencode" / "home" / ".local" / "share" / "opencode" / "opencode.db"
OPENCODE_SESSION = "ses_dce7e10dfffelfqLx8cAuofkf2"


def test_hostile_opencode_rows(tmp_path: Path, isolated_env: Path, cli: Cli) -> None:
    from tests.metrics.conftest import EXPECTED as STATED

    plain = tmp_path / "plain"
    plain.mkdir()
    direct_session(plain, "abcdef01", "opencode", OPENCODE_SESSION)
    database = isolated_env / ".local" / "share" / "opencode" / "opencode.db"
    database.parent.mkdir(parents=True)
    shutil.copy(OPENCODE_DB, database)
    rows = usage_lines("opencode") + shape_lines("opencode")
    with sqlite3.connect(database) as db:
        for n, data in enumerate(rows):
            db.execute("INSERT INTO message VALUES (?, ?, 9, 9, ?)",
                       (f"msg_hostile_{n}", OPENCODE_SESSION, data))
    document = strict_json(cli("session", "metrics", "abcdef01", "--json", "-d", str(plain),
                               env=agent_env(isolated_env)).stdout)
    stated = STATED["opencode"]
    assert figures(document["data"]["agent"]) == (
        stated["requests"] + 6, stated["input"] + 2, stated["output"] + 24, 1.0)
    assert [(w["details"]["reason"], w["details"]["count"]) for w in document["warnings"]] == [
        ("unreadable_lines", 2), ("too_complex", 4), ("bad_values", 6), ("line_too_long", 1)]
