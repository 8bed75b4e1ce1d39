"""The update notice (docs/update.md, "Update notice"): real commands on a real terminal
(a PTY), the real background check against the Nexus fake, the clock moved through the
cache's own timestamps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gzia._version import __version__
from gzia.config import paths
from tests.fakes.nexus import NexusFake
from tests.update.conftest import nexus_env, pyz_reports, read_terminal
from tests.waiting import wait_for

DAY = 24 * 3600
NOTICE = "gz-ia 99.0.0 is available: run pip install --upgrade gz-ia\n"
"""The notice of ``python -m gzia`` run from a venv pip filled: pip's command, not
``gz-ia update`` (which refuses to replace such an install)."""
ZIPAPP_NOTICE = "gz-ia 99.0.0 is available: run gz-ia update\n"


def on_a_terminal(argv: list[str], env: dict[str, str], *, timeout: float = 60) -> str:
    """Run ``argv`` with stdin, stdout and stderr on a PTY; what it wrote there."""
    import pty

    master, slave = pty.openpty()
    child = subprocess.Popen(argv, env={**os.environ, **env}, stdin=slave, stdout=slave,
                             stderr=slave, start_new_session=True)
    os.close(slave)
    written = read_terminal(master)
    child.wait(timeout)
    return written.replace("\r\n", "\n")


def gzia(*args: str, env: dict[str, str] | None = None, terminal: bool = True) -> str:
    argv = [sys.executable, "-P", "-m", "gzia", *args]
    if terminal:
        return on_a_terminal(argv, env or {})
    done = subprocess.run(argv, env={**os.environ, **(env or {})}, capture_output=True,
                          text=True, timeout=60, check=False)
    return done.stdout + done.stderr


def cache_file() -> Path:
    return paths().cache_dir / "update-check.json"


def state_file() -> Path:
    return paths().state_dir / "update-notice.json"


def write(path: Path, document: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))


def answered(latest: str = "99.0.0", *, age: float = 0, current: str = __version__,
             newer: bool = True) -> None:
    write(cache_file(), {"checked_at": time.time() - age, "current": current,
                         "latest": latest, "newer": newer})


OFF = {"GZ_UPDATE_CHECK": "off"}


def test_the_notice_is_shown_once_a_day_on_a_terminal():
    answered()
    config_file = str(paths().config_file)

    first = gzia("config", "path")
    second = gzia("config", "path")
    write(state_file(), {"notified_at": time.time() - DAY - 1, "notified": "99.0.0"})
    next_day = gzia("config", "path", env={"GZ_LANG": "es"})

    assert first == f"{config_file}\n{NOTICE}"
    assert second == f"{config_file}\n"
    assert next_day == (f"{config_file}\ngz-ia 99.0.0 está disponible: ejecuta pip install "
                        "--upgrade gz-ia\n")


@pytest.mark.parametrize(("args", "env", "terminal"), [
    (("--json",), {}, True),
    (("-q",), {}, True),
    ((), {"CI": "true"}, True),
    ((), OFF, True),
    ((), {}, False),
])  # fmt: skip
def test_never_in_json_quiet_ci_off_or_without_a_terminal(args, env, terminal):
    answered()
    shown = gzia("config", "path", *args, env=env, terminal=terminal)
    assert "available" not in shown
    assert not state_file().exists()


def test_a_snoozed_version_is_not_announced_but_a_newer_one_is():
    answered()
    snoozed = gzia("update", "--snooze", "v99.0.0")
    quiet = gzia("config", "path")
    answered("99.1.0")
    newer = gzia("config", "path")
    assert snoozed == "✓ no update notice for gz-ia 99.0.0\n"
    assert "available" not in quiet
    assert newer.endswith("gz-ia 99.1.0 is available: run pip install --upgrade gz-ia\n")


def test_the_notice_follows_the_policy(tmp_path: Path):
    answered()
    policy = tmp_path / "policy.toml"
    policy.write_text('update_check = "off"\n')
    assert "available" not in gzia("config", "path", env={"GZ_POLICY_FILE": str(policy),
                                                          "GZ_UPDATE_CHECK": "notify"})


def test_a_stale_answer_starts_one_background_check_that_never_delays_the_command(
        nexus: NexusFake, releases, keys_env):
    nexus.publish(releases("99.0.0"), "99.0.0")
    nexus.server.inject("slow", "/service/rest/v1/search", delay=3.0)
    answered("1.0.0", age=DAY + 1, newer=False)
    env = {**nexus_env(nexus), **keys_env}

    started = time.monotonic()
    first = gzia("config", "path", env=env)
    second = gzia("config", "path", env=env)
    elapsed = time.monotonic() - started

    assert "available" not in first + second
    assert json.loads(cache_file().read_text())["latest"] == "1.0.0"  # the check still waits
    assert elapsed < 3.0
    wait_for(lambda: json.loads(cache_file().read_text()).get("latest") == "99.0.0",
             "the background check's answer", timeout=60)
    assert len(nexus.server.requests_to("/service/rest/v1/search")) == 1  # one check ran
    assert gzia("config", "path", env=env).endswith(NOTICE)


def test_a_failed_check_is_recorded_and_not_retried_at_every_command(dead_url):
    answered(age=DAY + 1)
    env = {"GZ_NEXUS_SEARCH_URL": f"{dead_url}/service/rest/v1/search/assets?repository=x"}
    gzia("config", "path", env=env)
    wait_for(lambda: "error" in json.loads(cache_file().read_text()), "a failed check")
    answer = json.loads(cache_file().read_text())
    assert (answer["error"], answer["newer"], answer["current"]) == ("NETWORK", False,
                                                                     __version__)
    from gzia.update.notice import NoticeFiles, check_due

    files = NoticeFiles.of(paths().cache_dir, paths().state_dir)
    assert not check_due(files, __version__, time.time())
    assert check_due(files, __version__, time.time() + 3601)


def _standin(target: Path, *args: str, env: dict[str, str]) -> str:
    return on_a_terminal([sys.executable, str(target), *args], env)


def test_auto_installs_in_the_background_when_nothing_runs_from_the_file(
        nexus: NexusFake, releases, target: Path, keys_env):
    nexus.publish(releases("2.0.0"), "2.0.0")
    answered("1.0.0", age=DAY + 1, current="1.0.0", newer=False)
    env = {**nexus_env(nexus), **keys_env, "GZ_UPDATE_CHECK": "auto"}

    _standin(target, "config", "path", env=env)

    wait_for(lambda: json.loads(cache_file().read_text()).get("auto") == "installed",
             "the background install", timeout=90)
    assert pyz_reports(target) == "gz-ia 2.0.0"


def test_auto_leaves_a_file_a_session_runs_from(nexus: NexusFake, releases, target: Path,
                                                keys_env):
    nexus.publish(releases("2.0.0"), "2.0.0")
    answered("1.0.0", age=DAY + 1, current="1.0.0", newer=False)
    env = {**nexus_env(nexus), **keys_env, "GZ_UPDATE_CHECK": "auto"}
    session = subprocess.Popen([sys.executable, "-c", "import sys, time; time.sleep(120)",
                                str(target)], start_new_session=True)
    try:
        _standin(target, "config", "path", env=env)
        wait_for(lambda: json.loads(cache_file().read_text()).get("auto") == "in_use",
                 "the background check's decision", timeout=90)
    finally:
        session.kill()
        session.wait(10)
    assert pyz_reports(target) == "gz-ia 1.0.0"


@pytest.mark.pyz
def test_the_zipapp_starts_its_own_check_and_shows_its_answer(pyz: Path, nexus: NexusFake,
                                                              releases, keys_env, shiv_root):
    nexus.publish(releases("99.0.0"), "99.0.0")
    answered("1.0.0", age=DAY + 1, newer=False)
    env = {**nexus_env(nexus), **keys_env, "SHIV_ROOT": str(shiv_root)}

    first = on_a_terminal([sys.executable, str(pyz), "config", "path"], env)
    wait_for(lambda: json.loads(cache_file().read_text()).get("latest") == "99.0.0",
             "the zipapp's background check", timeout=90)
    second = on_a_terminal([sys.executable, str(pyz), "config", "path"], env)

    assert "available" not in first
    assert second.endswith(ZIPAPP_NOTICE)
