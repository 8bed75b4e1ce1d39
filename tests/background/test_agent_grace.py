"""Per-driver kill grace and quit signals: Claude Code and opencode declare a longer grace
(they save their conversation on SIGTERM), used by ``session kill`` while ``kill_grace_ms``
is left at its default (seed 000's 100 ms, still every other agent's); opencode's own
Ctrl+C quit (it dies of SIGINT) is a completed session, not a killed one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.background.conftest import wait_final
from tests.conftest import Result
from tests.supervisor.fakes import wait_for_note

Gz = Callable[..., Result]

FLUSHES_ON_TERM = """
def flush(signum, frame):
    time.sleep(0.6)  # writing its conversation out
    note("flushed", 1)
    sys.exit(0)
signal.signal(signal.SIGTERM, flush)
note("ready", 1)
while True:
    time.sleep(1)
"""


def _start(gz: Gz, repo: Path, provider: str, env: dict[str, str] | None = None) -> str:
    result = gz("--json", "chat", "-b", "-p", provider, "-i", "task", cwd=repo, env=env)
    assert result.exit_code == 0, result
    return str(result.json["data"]["id"])


@pytest.mark.parametrize(("provider", "env", "flushed"), [
    ("claude", {}, True),  # its driver's grace (2 s) lets it finish
    ("opencode", {}, True),
    ("claude", {"GZ_KILL_GRACE_MS": "100"}, False),  # a grace the user set wins
])
def test_session_kill_gives_the_agent_its_driver_grace(  # noqa: PLR0917 - pytest fixtures
        gz: Gz, repo: Path, agent: Callable[[str, str], Path], notes: Path, provider: str,
        env: dict[str, str], flushed: bool) -> None:
    agent(provider, FLUSHES_ON_TERM)
    session = _start(gz, repo, provider)
    wait_for_note(notes, "ready")
    result = gz("--json", "session", "kill", session, cwd=repo, env=env)

    assert result.exit_code == 0, result
    record = wait_final(repo, session)
    assert (notes / "flushed").exists() is flushed
    assert (record["status"], record["end_reason"]) == ("killed", "killed")
    # it exited by itself after flushing (its own 0), or SIGKILL cut it short
    assert (record["signal"], record["exit_code"]) == ((None, 0) if flushed else (9, 137))


def test_other_agents_keep_the_seeds_100_ms(gz: Gz, repo: Path,
                                            agent: Callable[[str, str], Path],
                                            notes: Path) -> None:
    agent("flusher", FLUSHES_ON_TERM)
    result = gz("--json", "exec", "-b", "--", "flusher", cwd=repo)
    session = result.json["data"]["id"]
    wait_for_note(notes, "ready")
    assert gz("session", "kill", session, cwd=repo).exit_code == 0
    assert wait_final(repo, session)["signal"] == 9  # SIGKILL after 100 ms, before the flush
    assert not (notes / "flushed").exists()


QUITS_ON_CTRL_C = """
note("ready", 1)
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.kill(os.getpid(), signal.SIGINT)  # what opencode's Ctrl+C quit looks like to gz-ia
"""


@pytest.mark.parametrize(("provider", "status", "exit_code"), [
    ("opencode", "completed", 0),
    ("claude", "killed", 130),  # for any other agent, dying of SIGINT stays an interruption
])
def test_opencode_quitting_on_ctrl_c_is_a_completed_session(  # noqa: PLR0917 - pytest fixtures
        gz: Gz, repo: Path, agent: Callable[[str, str], Path], provider: str, status: str,
        exit_code: int) -> None:
    agent(provider, QUITS_ON_CTRL_C)
    result = gz("--json", "chat", "-p", provider, "-i", "task", cwd=repo)

    assert result.exit_code == exit_code, result
    record = result.json["data"]
    assert (record["status"], record["end_reason"], record["signal"], record["exit_code"]) == (
        status, "signal", 2, 130)
    asked = gz("--json", "chat", "-p", provider, "-i", "task", "--exit-code", cwd=repo)
    assert asked.exit_code == 130  # --exit-code: the agent's own code, whatever the status


def test_a_background_opencode_quit_is_completed_too(gz: Gz, repo: Path,
                                                     agent: Callable[[str, str], Path]) -> None:
    agent("opencode", QUITS_ON_CTRL_C)
    session = _start(gz, repo, "opencode")
    record = wait_final(repo, session)
    assert (record["status"], record["signal"]) == ("completed", 2)
