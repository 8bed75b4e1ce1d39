"""Real processes: concurrent updates and SIGKILL at any moment leave a working gz-ia.pyz."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fakes.nexus import NexusFake
from tests.fakes.releases import pyz_name, standin_pyz_bytes
from tests.update.conftest import nexus_env, pyz_reports, read_terminal

PADDING = 400_000


@pytest.fixture
def spawn(target: Path, keys_env: dict[str, str]) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start ``python gz-ia.pyz update ...`` (the stand-in runs this checkout's gz-ia)."""
    children: list[subprocess.Popen] = []

    def start(*args: str, env: dict[str, str]) -> subprocess.Popen:
        child = subprocess.Popen([sys.executable, str(target), "update", *args],
                                 env={**os.environ, **keys_env, **env},
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 start_new_session=True)
        children.append(child)
        return child

    yield start
    for child in children:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.communicate(timeout=10)


def _wait_for(predicate: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def _staged(target: Path) -> Path:
    return target.parent / ".gz-ia.pyz.update" / target.name


def _wait_for_self_tests_to_end(target: Path) -> None:
    """A self-test child outlives its killed parent briefly; wait for it, never kill it."""
    needle = str(target.parent).encode()

    def none_left() -> bool:
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if needle in (entry / "cmdline").read_bytes():
                        return False
                except OSError:
                    continue
        return True

    _wait_for(none_left)


def _kill(child: subprocess.Popen) -> None:
    os.killpg(child.pid, signal.SIGKILL)
    child.communicate(timeout=10)


def _works(target: Path) -> str:
    assert zipfile.is_zipfile(target)
    reported = pyz_reports(target)
    assert reported in ("gz-ia 1.0.0", "gz-ia 2.0.0")
    return reported


def test_concurrent_update_gets_locked(nexus: NexusFake, releases, spawn, update_cli,
                                       target: Path):
    nexus.publish(releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=PADDING)),
                  "2.0.0")
    nexus.server.inject("trickle", f"/repository/gz-ia/gz-ia/2.0.0/{pyz_name('2.0.0')}",
                        chunk=32768, delay=0.05)
    first = spawn("--json", env=nexus_env(nexus))
    _wait_for(lambda: _staged(target).exists())
    second = update_cli("update", "--json", env=nexus_env(nexus))
    assert second.exit_code == 1
    assert second.json == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "LOCKED", "message": f"another update of {target} is in progress",
        "retryable": True, "hint": "wait for it to finish, then run the command again",
        "details": {"path": str(target)}}]}
    _, stderr = first.communicate(timeout=60)
    assert first.returncode == 0, stderr
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_sigkill_during_download(nexus: NexusFake, releases, spawn, target: Path):
    nexus.publish(releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=PADDING)),
                  "2.0.0")
    nexus.server.inject("trickle", "/repository/gz-ia/gz-ia/2.0.0/gz-ia-", chunk=16384,
                        delay=0.05)
    child = spawn("--json", env=nexus_env(nexus))
    _wait_for(lambda: _staged(target).exists() and _staged(target).stat().st_size > 50_000)
    _kill(child)
    assert pyz_reports(target) == "gz-ia 1.0.0"
    nexus.server.clear_faults()
    again = spawn("--json", env=nexus_env(nexus))
    assert again.wait(60) == 0
    assert pyz_reports(target) == "gz-ia 2.0.0"
    assert not _staged(target).parent.exists()


def test_sigkill_during_apply(nexus: NexusFake, releases, spawn, target: Path):
    slow = standin_pyz_bytes("2.0.0", version_delay=1.0)
    nexus.publish(releases("2.0.0", payload=slow), "2.0.0")
    child = spawn("--json", env=nexus_env(nexus))
    _wait_for(lambda: _staged(target).exists() and _staged(target).stat().st_size == len(slow))
    time.sleep(0.3)  # inside the self-test
    _kill(child)
    _wait_for_self_tests_to_end(target)
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_sigkill_at_any_moment_leaves_a_working_pyz(nexus: NexusFake, releases, spawn,
                                                    target: Path):
    nexus.publish(releases("2.0.0"), "2.0.0")
    delay, outcomes = 0.05, []
    for _attempt in range(60):  # kills later each time, until an update runs to its end
        child = spawn("--json", env=nexus_env(nexus))
        time.sleep(delay)
        finished = child.poll() is not None
        if not finished:
            _kill(child)
            _wait_for_self_tests_to_end(target)
        outcomes.append(_works(target))
        if outcomes[-1] == "gz-ia 2.0.0":
            break
        delay += 0.15
    assert outcomes[-1] == "gz-ia 2.0.0" and len(outcomes) > 1


def _run_with_tty_stderr(target: Path, args: list[str], env: dict[str, str]) -> tuple[int, str]:
    import pty

    master, slave = pty.openpty()
    child = subprocess.Popen([sys.executable, str(target), "update", *args],
                             env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=slave, start_new_session=True)
    os.close(slave)
    written = read_terminal(master)
    child.communicate(timeout=30)
    return child.returncode, written


@pytest.mark.parametrize("flags", [[], ["--json"], ["-q"]])
def test_progress_bar_only_on_a_terminal_in_human_mode(nexus: NexusFake, releases,
                                                       target: Path, keys_env, flags):
    nexus.publish(releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=PADDING)),
                  "2.0.0")
    code, stderr = _run_with_tty_stderr(target, flags, {**keys_env, **nexus_env(nexus)})
    assert code == 0
    size = (len(standin_pyz_bytes("2.0.0", padding=PADDING))) / 1048576
    bar = f"\r[{'#' * 30}] {size:7.1f} / {size:.1f} MiB"
    assert (bar in stderr) is (flags == [])


def test_sigkill_at_any_moment_of_a_channel_update(nexus: NexusFake, releases, spawn,
                                                   target: Path, signed, isolated_env: Path):
    """A manifest read (trust and cache written) and a yank downgrade: kill -9 at moments
    spread over the whole run leaves a working file and whole state files each time."""
    from tests.fakes.manifests import manifest_document, publish_nexus

    nexus.publish(releases("2.0.0", payload=standin_pyz_bytes("2.0.0", padding=PADDING)),
                  "2.0.0")
    publish_nexus(nexus, "stable", *signed(manifest_document(
        version="2.0.0", yanked=[{"version": "1.0.0", "reason": "broken"}])))
    state = isolated_env / ".xdg-state" / "gz-ia" / "update"
    for delay in (0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5):
        child = spawn("--json", env=nexus_env(nexus))
        time.sleep(delay)  # a moment to kill at, not a wait for a state
        _kill(child)
        _wait_for_self_tests_to_end(target)
        _works(target)
        for name in ("manifest.json", "trust.json"):
            if (state / name).exists():
                import json

                json.loads((state / name).read_text())
    again = spawn("--json", env=nexus_env(nexus))
    assert again.wait(60) == 0
    assert pyz_reports(target) == "gz-ia 2.0.0"
