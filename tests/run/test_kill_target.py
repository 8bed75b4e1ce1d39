"""``session kill`` signals what the live process proves, never what the record merely says.

Records here are written by the test (corrupt, hand-edited, or in the original gz-ia's
shape) and name processes the test started. Kills whose wrong target could reach beyond
the test's own processes (group 1, the test's own group) run in-process under
``guard``, which lets a signal through only to a process or group the test started and
fails the test otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gzia.contract import SafetyBlockError
from gzia.sessions.kill import kill_session
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.killtarget import NOT_GROUP_LEADER, PGID_MISMATCH
from gzia.supervisor.procinfo import process_start_time
from tests.conftest import Result
from tests.run.conftest import stored_record
from tests.supervisor.fakes import (
    STUBBORN_WITH_GRANDCHILD,
    noted_pids,
    pid_running,
    wait_for_note,
    write_agent,
)

SESSION = "5e55a0c1"
SLEEPS = "import time\nprint('ready', flush=True)\nwhile True:\n    time.sleep(1)\n"
IGNORES_TERM = "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" + SLEEPS
ORIGINAL_GZ_IA = """
import subprocess, sys
import time
agent = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE)
agent.stdout.readline()
print(agent.pid, flush=True)
print(agent.wait(), flush=True)
while True:
    time.sleep(1)
"""
"""Stands in for the original gz-ia: the agent runs as its child, inside its group; it
prints the agent's pid, then how the agent ended, and stays."""


class Started:
    """Processes the test started; at teardown each (with its group, if it leads one) is
    SIGKILLed and reaped."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen[str]] = []
        self.pids: set[int] = set()
        self.leaders: set[int] = set()

    def python(self, code: str, *args: str, own_group: bool) -> subprocess.Popen[str]:
        """Start ``python -c code`` and wait for its first line (it is ready)."""
        process = subprocess.Popen([sys.executable, "-c", code, *args], text=True,
                                   stdout=subprocess.PIPE,
                                   process_group=0 if own_group else None)
        self.add(process, own_group=own_group)
        assert process.stdout is not None
        process.stdout.readline()
        return process

    def add(self, process: subprocess.Popen[str], *, own_group: bool) -> None:
        self.processes.append(process)
        self.pids.add(process.pid)
        if own_group:
            self.leaders.add(process.pid)

    def cleanup(self) -> None:
        for leader in self.leaders:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(leader, signal.SIGKILL)
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait(5)


@pytest.fixture
def started() -> Iterator[Started]:
    processes = Started()
    yield processes
    processes.cleanup()


class SignalGuard:
    """Spies on os.kill/os.killpg: records every real signal and lets it through only to
    a pid, or a group led by a pid, that the test started. Signal-0 probes pass."""

    def __init__(self, started: Started) -> None:
        self.started = started
        self.sent: list[tuple[str, int, int]] = []
        self.refuse: set[int] = set()  # signals that fail with EPERM (besides probes)
        self._kill, self._killpg = os.kill, os.killpg

    def kill(self, pid: int, signum: int) -> None:
        self._check("pid", pid, signum)
        self._kill(pid, signum)

    def killpg(self, pgid: int, signum: int) -> None:
        self._check("group", pgid, signum)
        self._killpg(pgid, signum)

    def _check(self, kind: str, target: int, signum: int) -> None:
        if signum == 0:
            return
        self.sent.append((kind, target, signum))
        if target not in self.started.pids:
            raise AssertionError(f"gz-ia signalled {kind} {target}, which the test did not start")
        if signum in self.refuse:
            raise PermissionError(1, "Operation not permitted")


@pytest.fixture
def guard(started: Started, monkeypatch: pytest.MonkeyPatch) -> SignalGuard:
    spy = SignalGuard(started)
    monkeypatch.setattr(os, "kill", spy.kill)
    monkeypatch.setattr(os, "killpg", spy.killpg)
    return spy


def write_record(repo: Path, pid: int, pgid: int | None, *, original: bool = False) -> None:
    """A ``running`` record: gz-ia's shape (start time, the given pgid) or the original's."""
    store = SessionStore(find_project(repo))
    if original:  # the original gz-ia wrote neither pgid nor the start time
        store.dir.mkdir(parents=True, exist_ok=True)
        store.record_path(SESSION).write_text(json.dumps({
            "id": SESSION, "pid": pid, "provider": "claude", "status": "running",
            "permission_level": "supervised", "working_dir": str(repo),
            "started_at": "2025-06-01T10:15:30.123456789+02:00", "exit_code": 0,
            "is_isolated": False}, indent=2))
        return
    store.create(SessionRecord(id=SESSION, pid=pid, pgid=pgid, status="running",
                               pid_start_time=process_start_time(pid),
                               started_at=now_rfc3339(), working_dir=str(repo)))


def kill_in_process(repo: Path, *, force: bool = False) -> Any:
    return kill_session(SessionStore(find_project(repo)), SESSION, grace_s=0.1, force=force)


def killed_fields(repo: Path) -> tuple[Any, ...]:
    record = stored_record(repo, SESSION)
    return record["status"], record["end_reason"], record["signal"], record["exit_code"]


def process_only_warning(pid: int, pgid: int, recorded: int | None, reason: str,
                         why: str) -> dict[str, Any]:
    return {
        "code": "SAFETY_BLOCK",
        "message": f"only PID {pid} was signalled, not a process group: {why}; "
                   "processes it started may still be running",
        "retryable": False, "hint": None,
        "details": {"id": SESSION, "signalled": "process", "pid": pid, "pgid": pgid,
                    "recorded_pgid": recorded, "reason": reason},
    }


def test_a_record_naming_another_group_stops_the_agent_and_spares_that_group(
    gz: Callable[..., Result], repo: Path, started: Started
):
    agent = started.python(SLEEPS, own_group=True)
    bystander = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, bystander.pid)

    result = gz("--json", "session", "kill", SESSION, cwd=repo)

    assert result.exit_code == 0, result.stderr
    document = result.json
    assert document["ok"] is True and document["errors"] == []
    assert document["data"] == stored_record(repo, SESSION)
    assert killed_fields(repo) == ("killed", "killed", 15, 143)
    assert document["warnings"] == [process_only_warning(
        agent.pid, agent.pid, bystander.pid, PGID_MISMATCH,
        f"the record names process group {bystander.pid}, but the process is in group "
        f"{agent.pid}")]
    assert agent.wait(5) == -signal.SIGTERM
    assert bystander.poll() is None


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_process_only_kill_is_explained_in_human_output(
    gz: Callable[..., Result], repo: Path, started: Started, lang: str
):
    agent = started.python(IGNORES_TERM, own_group=True)
    bystander = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, bystander.pid)

    result = gz("session", "kill", SESSION, cwd=repo, env={"GZ_LANG": lang})

    assert result.exit_code == 0, result.stderr
    a, b = agent.pid, bystander.pid
    expected = {
        "en": (f"✓ Session '{SESSION}' (PID {a}) stopped.\n",
               f"Warning: only PID {a} was signalled, not a process group: the record names "
               f"process group {b}, but the process is in group {a}; processes it started "
               "may still be running\n"),
        "es": (f"✓ Sesión '{SESSION}' (PID {a}) finalizada con éxito.\n",
               f"Aviso: solo se envió la señal al PID {a}, no a un grupo de procesos: el "
               f"registro indica el grupo de procesos {b}, pero el proceso está en el grupo "
               f"{a}; los procesos que inició pueden seguir en ejecución\n"),
    }
    assert (result.stdout, result.stderr) == expected[lang]
    assert agent.wait(5) == -signal.SIGKILL  # it ignored SIGTERM: the grace, then SIGKILL
    assert killed_fields(repo) == ("killed", "killed", 9, 137)
    assert bystander.poll() is None


@pytest.mark.parametrize("recorded", [1, -7, 0], ids=str)
def test_an_invalid_or_group_1_pgid_signals_only_the_agent(
    guard: SignalGuard, repo: Path, started: Started, recorded: int
):
    agent = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, recorded)

    result = kill_in_process(repo)

    assert guard.sent == [("pid", agent.pid, signal.SIGTERM), ("pid", agent.pid, signal.SIGCONT)]
    assert result.target.reason == PGID_MISMATCH and result.signal == signal.SIGTERM
    assert agent.wait(5) == -signal.SIGTERM
    assert killed_fields(repo) == ("killed", "killed", 15, 143)


def test_a_negative_pgid_is_no_io_error_from_the_command_line(
    gz: Callable[..., Result], repo: Path, started: Started
):
    agent = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, -7)

    result = gz("--json", "session", "kill", SESSION, cwd=repo)

    assert (result.exit_code, result.json["ok"], result.json["errors"]) == (0, True, [])
    assert [w["details"]["reason"] for w in result.json["warnings"]] == [PGID_MISMATCH]
    assert agent.wait(5) == -signal.SIGTERM
    assert killed_fields(repo) == ("killed", "killed", 15, 143)


def test_an_original_record_whose_agent_shares_the_tests_group_stops_only_the_agent(
    guard: SignalGuard, repo: Path, started: Started
):
    agent = started.python(IGNORES_TERM, own_group=False)
    sibling = started.python(SLEEPS, own_group=False)
    assert os.getpgid(agent.pid) == os.getpgid(sibling.pid) == os.getpgrp()
    write_record(repo, agent.pid, None, original=True)

    result = kill_in_process(repo, force=True)  # python is not claude: --force

    assert [kind for kind, _, _ in guard.sent] == ["pid", "pid", "pid"]  # never a group
    assert guard.sent[-1] == ("pid", agent.pid, signal.SIGKILL)
    assert (result.target.reason, result.signal) == (NOT_GROUP_LEADER, signal.SIGKILL)
    assert agent.wait(5) == -signal.SIGKILL
    assert sibling.poll() is None
    assert os.getpgid(sibling.pid) == os.getpgrp()  # the test's group is still there
    assert killed_fields(repo) == ("killed", "killed", 9, 137)


def test_an_original_record_whose_agent_runs_inside_its_gz_ias_group_stops_only_the_agent(
    gz: Callable[..., Result], repo: Path, started: Started
):
    holder = subprocess.Popen([sys.executable, "-c", ORIGINAL_GZ_IA, IGNORES_TERM], text=True,
                              stdout=subprocess.PIPE, process_group=0)
    started.add(holder, own_group=True)
    assert holder.stdout is not None
    agent = int(holder.stdout.readline())
    assert os.getpgid(agent) == holder.pid
    write_record(repo, agent, None, original=True)

    result = gz("--json", "session", "kill", "--force", SESSION, cwd=repo)  # not claude

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["status"] == "killed"
    assert result.json["warnings"] == [process_only_warning(
        agent, holder.pid, None, NOT_GROUP_LEADER,
        f"it shares process group {holder.pid} with other processes and does not lead it")]
    assert holder.stdout.readline() == f"{-signal.SIGKILL}\n"  # the agent alone was stopped
    assert holder.poll() is None
    assert killed_fields(repo) == ("killed", "killed", 9, 137)


def test_an_original_record_whose_agent_leads_a_group_kills_all_of_it(
    gz: Callable[..., Result], repo: Path, tmp_path: Path, notes: Path, started: Started
):
    script = write_agent(tmp_path / "claude", STUBBORN_WITH_GRANDCHILD + "\n")  # the agent
    env = {**os.environ, "FAKE_NOTES": str(notes)}
    agent = subprocess.Popen([str(script)], env=env, process_group=0, text=True)
    started.add(agent, own_group=True)
    wait_for_note(notes, "grandchild.pid")
    write_record(repo, agent.pid, None, original=True)

    result = gz("--json", "session", "kill", SESSION, cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.json["warnings"] == []
    assert agent.wait(5) == -signal.SIGKILL
    assert [pid for pid in noted_pids(notes) if pid_running(pid)] == []
    assert killed_fields(repo) == ("killed", "killed", 9, 137)


def test_a_signal_that_cannot_be_sent_leaves_the_record_running(
    guard: SignalGuard, repo: Path, started: Started, cli: Callable[..., Result]
):
    agent = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, agent.pid)
    guard.refuse = {signal.SIGTERM}

    english = cli("--json", "session", "kill", SESSION, cwd=repo)
    spanish = cli("session", "kill", SESSION, cwd=repo, env={"GZ_LANG": "es"})

    assert english.exit_code == 1
    assert english.json["errors"] == [{
        "code": "IO", "message": f"cannot stop session '{SESSION}': no permission to signal "
                                 f"PID {agent.pid}",
        "retryable": False, "hint": None, "details": {"id": SESSION, "pid": agent.pid}}]
    assert spanish.exit_code == 1
    assert spanish.stderr == (f"Error: no se puede detener la sesión '{SESSION}': sin permiso "
                              f"para enviar señales al PID {agent.pid}\n")
    assert stored_record(repo, SESSION)["status"] == "running"
    assert agent.poll() is None


def test_a_record_naming_pid_1_or_gz_ia_itself_is_refused_untouched(
    guard: SignalGuard, repo: Path
):
    store = SessionStore(find_project(repo))
    for pid in (1, os.getpid()):
        store.create(SessionRecord(id=SESSION, pid=pid, pgid=pid, status="running",
                                   pid_start_time=process_start_time(pid),
                                   started_at=now_rfc3339(), working_dir=str(repo)))
        before = stored_record(repo, SESSION)

        with pytest.raises(SafetyBlockError) as refused:
            kill_in_process(repo)

        assert refused.value.message == (
            f"session '{SESSION}' names PID {pid}, which gz-ia will not signal; "
            "the record was left as it is")
        assert stored_record(repo, SESSION) == before
        store.delete(SESSION)
    assert guard.sent == []



def test_delete_force_of_a_running_session_warns_when_only_the_agent_was_signalled(
    gz: Callable[..., Result], repo: Path, started: Started
):
    agent = started.python(SLEEPS, own_group=True)
    bystander = started.python(SLEEPS, own_group=True)
    write_record(repo, agent.pid, bystander.pid)

    result = gz("--json", "session", "delete", "--force", SESSION, cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["killed"] is True
    assert [w["details"] for w in result.json["warnings"]] == [
        process_only_warning(agent.pid, agent.pid, bystander.pid, PGID_MISMATCH, "")["details"]]
    assert agent.wait(5) == -signal.SIGTERM
    assert bystander.poll() is None
