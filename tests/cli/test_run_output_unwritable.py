"""A run whose output cannot be written (``gz-ia exec ... > /dev/full``) ends as any command
whose stdout cannot be written: one I/O error, exit 1, once the run is recorded. The agent
runs to its end and its output log keeps everything; a reader that left (``| head``) is
not an error. With a terminal (the PTY relay) or without (pipes) alike: with a terminal
the failure killed the agent and left its record ``lost``; without one it was silent."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.update.conftest import read_terminal

AGENT = ["sh", "-c", "seq 1 20000"]
GZ = [sys.executable, "-m", "gzia"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "commit", "-q", "--allow-empty", "-m", "start"],
                   check=True)
    return tmp_path


def only_session(repo: Path) -> dict[str, object]:
    done = subprocess.run([*GZ, "--json", "session", "list"], cwd=repo, capture_output=True,
                          text=True, timeout=60, check=True)
    [session] = json.loads(done.stdout)["data"]["sessions"]
    return dict(session)


def logged(repo: Path) -> bytes:
    [log] = (repo / ".harness" / "logs").glob("*.log")
    return log.read_bytes()


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Error: I/O error: No space left on device"),
    ("es", "Error: error de E/S: No space left on device"),
])
def test_a_run_without_a_terminal_whose_output_cannot_be_written(
    repo: Path, monkeypatch: pytest.MonkeyPatch, lang: str, message: str
) -> None:
    monkeypatch.setenv("GZ_LANG", lang)
    with open("/dev/full", "w") as full:
        done = subprocess.run([*GZ, "-q", "exec", "--", *AGENT], cwd=repo, stdin=subprocess.DEVNULL,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              check=False)
    assert (done.returncode, done.stderr.splitlines()[-1:]) == (1, [message])
    assert only_session(repo)["status"] == "completed"
    assert logged(repo).splitlines()[-1] == b"20000"


def test_a_run_on_a_terminal_whose_output_cannot_be_written(repo: Path) -> None:
    master, slave = pty.openpty()
    with open("/dev/full", "w") as full:
        child = subprocess.Popen([*GZ, "-q", "exec", "--", *AGENT], cwd=repo, stdin=slave,
                                 stdout=full, stderr=slave, start_new_session=True)
    os.close(slave)
    code = child.wait(timeout=120)
    stderr = read_terminal(master)
    assert code == 1, stderr
    assert "Error: I/O error: No space left on device" in stderr
    assert only_session(repo)["status"] == "completed"  # not lost: the agent ran to its end
    assert b"20000" in logged(repo)


def test_a_run_whose_reader_left_is_not_an_error(repo: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([*GZ, "-q", "exec", "--", *AGENT], cwd=repo,
                              stdin=subprocess.DEVNULL, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (0, "")
    assert only_session(repo)["status"] == "completed"
