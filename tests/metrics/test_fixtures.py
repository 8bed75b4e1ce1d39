# ruff: noqa: E501  (whole tables as people read them: a line of output is one line here)
"""The real agents' transcripts yield exactly the figures their README states."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.metrics.conftest import (
    AGENTS,
    CLAUDE_CONVERSATION,
    CLAUDE_SLUG,
    EXPECTED,
    agent_env,
)

Cli = Callable[..., Result]
Copy = Callable[[str], Path]


def stated(agent: str) -> dict[str, Any]:
    """What expected.json states for ``agent``, in the shape ``session metrics`` reports."""
    e = EXPECTED[agent]
    tokens = {"input": e["input"], "output": e["output"], "cache_read": e["cache_read"],
              "cache_write": e["cache_write"]}
    if "reasoning" in e:
        tokens["reasoning"] = e["reasoning"]
    return {"models": e["models"], "requests": e["requests"], "tokens": tokens,
            "tool_calls": e["tool_calls"]}


def reported(agent_data: dict[str, Any], with_reasoning: bool) -> dict[str, Any]:
    tokens = dict(agent_data["tokens"])
    if not with_reasoning:
        assert tokens.pop("reasoning") is None  # not recorded by this agent: no figure at all
    return {"models": agent_data["models"], "requests": agent_data["requests"],
            "tokens": tokens, "tool_calls": agent_data["tool_calls"]}


@pytest.mark.parametrize("agent", AGENTS)
def test_each_fixture_yields_exactly_the_stated_figures(agent: str, fixture_copy: Copy,
                                                        cli: Cli) -> None:
    base = fixture_copy(agent)
    session = EXPECTED[agent]["session"]
    result = cli("session", "metrics", session, "--json", "-d", str(base / "repo"),
                 env=agent_env(base / "home"))
    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert reported(data["agent"], "reasoning" in EXPECTED[agent]) == stated(agent)
    assert reported(data["totals"], "reasoning" in EXPECTED[agent]) == stated(agent)
    assert data["agent"]["estimated"] is False


def test_claude_fixture_whole_document(fixture_copy: Copy, cli: Cli) -> None:
    base = fixture_copy("claude")
    result = cli("--json", "session", "metrics", "9221f465", "-d", str(base / "repo"),
                 env=agent_env(base / "home"))
    transcript = (base / "home" / ".claude" / "projects" / CLAUDE_SLUG /
                  f"{CLAUDE_CONVERSATION}.jsonl")
    usage = {"models": ["claude-opus-4-8"], "requests": 2,
             "tokens": {"input": 250, "output": 45, "cache_read": 15, "cache_write": 10,
                        "reasoning": None},
             "cost_usd": None, "tool_calls": {"Write": 1}}
    diff_detail = "session '9221f465': neither its worktree nor its branch is available"
    assert result.json == {
        "ok": True,
        "data": {
            "id": "9221f465", "provider": "claude", "status": "completed", "mode": "chat",
            "started_at": "2026-12-01T12:08:36.402058Z",
            "finished_at": "2026-12-01T12:08:39.976072Z",
            "duration_ms": 3574, "exit_code": 0, "source": "record", "changes": None,
            "agent": {"source": "claude transcript", "estimated": False,
                      "files": [str(transcript)], "conversation_ids": [CLAUDE_CONVERSATION],
                      **usage, "subagents": []},
            "totals": usage,
        },
        "errors": [],
        "warnings": [{
            "code": "IO", "retryable": False, "hint": None,
            "message": f"session 9221f465: files and lines changed are unknown: {diff_detail}",
            "details": {"id": "9221f465", "reason": "diff_unavailable", "path": "9221f465",
                        "count": 0, "detail": diff_detail},
        }],
    }


HUMAN = {
    "en": """\
❯ Metrics of session 6a3d291c (pi-agent)
Status:          completed
Duration:        4.0s
Exit code:       0
Changes:         -
Source:          pi transcript
Models:          fake-model
Requests:        2
Tokens:          input 230 · output 43 · cache read 9 · cache write 0 · reasoning -
Cost:            $0.0000
Tool calls:      write 1
Sub-agents:      none
""",
    "es": """\
❯ Métricas de la sesión 6a3d291c (pi-agent)
Estado:         completada
Duración:       4.0s
Código:         0
Cambios:        -
Fuente:         pi transcript
Modelos:        fake-model
Peticiones:     2
Tokens:         entrada 230 · salida 43 · caché leída 9 · caché escrita 0 · razonamiento -
Coste:          $0.0000
Herramientas:   write 1
Subagentes:     ninguno
""",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_session_metrics_for_people(lang: str, fixture_copy: Copy, cli: Cli) -> None:
    base = fixture_copy("pi")
    result = cli("session", "metrics", "6a3d291c", "-d", str(base / "repo"),
                 env={**agent_env(base / "home"), "GZ_LANG": lang})
    assert result.exit_code == 0
    assert result.stdout == HUMAN[lang]
    prefix = {"en": "Warning: session 6a3d291c: files and lines changed are unknown",
              "es": "Aviso: sesión 6a3d291c: se desconocen los archivos y líneas cambiados"}
    assert result.stderr.startswith(prefix[lang])


@pytest.fixture
def all_three(fixture_copy: Copy, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """One project holding the three fixture sessions, one home holding their files."""
    repo, home = tmp_path / "project", tmp_path / "home-all"
    for agent in AGENTS:
        base = fixture_copy(agent)
        shutil.copytree(base / "home", home, dirs_exist_ok=True)
        shutil.copytree(base / "repo", repo, dirs_exist_ok=True)
    return repo, agent_env(home)


def test_metrics_totals_add_up_the_three_agents(all_three: tuple[Path, dict[str, str]],
                                                cli: Cli) -> None:
    repo, env = all_three
    result = cli("metrics", "--json", "-d", str(repo), env=env)
    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert [s["id"] for s in data["sessions"]] == ["3ea44959", "9221f465", "6a3d291c"]
    assert data["totals"] == {
        "sessions": 3, "duration_ms": 3574 + 3967 + 12017, "requests": 6,
        "tokens": {"input": 730, "output": 133, "cache_read": 39, "cache_write": 10,
                   "reasoning": 0},
        "cost_usd": 0.0, "tool_calls": {"Write": 1, "write": 2}, "estimated": False,
    }
    assert (data["by"], data["groups"]) == (None, None)
    assert result.json["warnings"] == []  # metrics reads no diffs


def test_metrics_by_provider_and_model(all_three: tuple[Path, dict[str, str]],
                                       cli: Cli) -> None:
    repo, env = all_three
    by_provider = cli("metrics", "--by", "provider", "--json", "-d", str(repo), env=env)
    groups = {g["key"]: (g["sessions"], g["requests"], g["tokens"]["input"], g["duration_ms"])
              for g in by_provider.json["data"]["groups"]}
    assert groups == {"claude": (1, 2, 250, 3574), "opencode": (1, 2, 250, 12017),
                      "pi-agent": (1, 2, 230, 3967)}
    by_model = cli("metrics", "--by", "model", "--json", "-d", str(repo), env=env)
    groups = {g["key"]: (g["sessions"], g["requests"], g["tokens"]["output"], g["duration_ms"])
              for g in by_model.json["data"]["groups"]}
    assert groups == {"claude-opus-4-8": (1, 2, 45, None), "fake-model": (2, 4, 88, None)}


def test_metrics_filters(all_three: tuple[Path, dict[str, str]], cli: Cli) -> None:
    repo, env = all_three

    def ids(*args: str) -> list[str]:
        result = cli("metrics", "--json", "-d", str(repo), *args, env=env)
        assert result.exit_code == 0, result.stdout
        return [s["id"] for s in result.json["data"]["sessions"]]

    assert ids("--provider", "claude") == ["9221f465"]
    assert ids("--status", "failed") == []
    assert ids("--since", "2026-12-01T12:08:35Z") == ["3ea44959", "9221f465"]
    assert ids("--since", "2026-12-02") == []
    assert ids("--since", "2026-12-01", "--provider", "pi-agent") == ["6a3d291c"]


TABLE = {
    "en": """\
ID        PROVIDER  STATUS     DURATION  REQUESTS  INPUT  OUTPUT  CACHE R  CACHE W  TOOLS  COST
3ea44959  opencode  completed  12.0s     2         250    45      15       0        1      $0.0000
9221f465  claude    completed  3.6s      2         250    45      15       10       1      -
6a3d291c  pi-agent  completed  4.0s      2         230    43      9        0        1      $0.0000
Total                          19.6s     6         730    133     39       10       3      $0.0000

By day:
GROUP       SESSIONS  DURATION  REQUESTS  INPUT  OUTPUT  CACHE R  CACHE W  TOOLS  COST
2026-12-01  3         19.6s     6         730    133     39       10       3      $0.0000
""",
    "es": """\
ID        AGENTE    ESTADO      DURACIÓN  PETIC.  ENTRADA  SALIDA  CACHÉ L  CACHÉ E  HERRAM.  COSTE
3ea44959  opencode  completada  12.0s     2       250      45      15       0        1        $0.0000
9221f465  claude    completada  3.6s      2       250      45      15       10       1        -
6a3d291c  pi-agent  completada  4.0s      2       230      43      9        0        1        $0.0000
Total                           19.6s     6       730      133     39       10       3        $0.0000

Por day:
GRUPO       SESIONES  DURACIÓN  PETIC.  ENTRADA  SALIDA  CACHÉ L  CACHÉ E  HERRAM.  COSTE
2026-12-01  3         19.6s     6       730      133     39       10       3        $0.0000
""",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_metrics_table_for_people(lang: str, all_three: tuple[Path, dict[str, str]],
                                  cli: Cli) -> None:
    repo, env = all_three
    result = cli("metrics", "--by", "day", "-d", str(repo), env={**env, "GZ_LANG": lang})
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == TABLE[lang]
