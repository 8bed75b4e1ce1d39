"""A terminal that closes under the UI (an SSH link drops, a window closes) ends it with
exit 143, as SIGHUP ends every other command, and leaves no process behind: whether the
terminal is gz-ia's controlling terminal (the kernel sends SIGHUP, then SIGCONT) or not
(no signal at all: every read fails at once, and the UI must notice by itself)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Run as gz-ia's parent's child: a new session whose controlling terminal is the PTY
# (a session leader that opens a terminal acquires it), then gz-ia itself.
ON_ITS_CONTROLLING_TERMINAL = """
import os, sys
os.setsid()
fd = os.open(sys.argv[1], os.O_RDWR)
for target in (0, 1, 2):
    os.dup2(fd, target)
os.execv(sys.executable, [sys.executable, "-m", "gzia", "start"])
"""


def start_ui(repo: Path, controlling: bool) -> tuple[subprocess.Popen[bytes], int]:
    primary, secondary = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "GZ_LANG": "en"}
    if controlling:
        argv = [sys.executable, "-c", ON_ITS_CONTROLLING_TERMINAL, os.ttyname(secondary)]
        ui = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.DEVNULL)
    else:
        ui = subprocess.Popen([sys.executable, "-m", "gzia", "start"], cwd=repo, env=env,
                              stdin=secondary, stdout=secondary, stderr=secondary,
                              start_new_session=True)
    os.close(secondary)
    return ui, primary


def wait_for_the_screen(primary: int, needle: bytes, timeout: float = 30.0) -> None:
    received, deadline = b"", time.monotonic() + timeout
    while needle not in received:
        assert time.monotonic() < deadline, received[-2000:]
        if select.select([primary], [], [], 0.1)[0]:
            try:
                received += os.read(primary, 65536)
            except OSError:  # EIO until the UI has opened its side of the terminal
                time.sleep(0.05)


@pytest.mark.parametrize("controlling", [True, False], ids=["controlling", "not-controlling"])
def test_a_closed_terminal_ends_the_ui_with_143(repo: Path, controlling: bool) -> None:
    for _ in range(2):  # the hang-up may land in different phases of the app's loop
        ui, primary = start_ui(repo, controlling)
        try:
            wait_for_the_screen(primary, b"Sessions: 0 of 0")
            os.close(primary)  # the terminal goes away
            assert ui.wait(timeout=15) == 143
        finally:
            if ui.poll() is None:
                ui.kill()
                ui.wait()
