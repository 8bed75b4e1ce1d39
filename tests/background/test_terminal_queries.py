"""A background agent's terminal queries are answered while nobody is attached (real PTYs)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.background.conftest import start_background, stored, wait_final, wait_until
from tests.conftest import Result

ASKS_ITS_TERMINAL = r"""
import select, tty
tty.setraw(0)
os.write(1, b"\x1b[6n\x1b[c")
got, deadline = b"", time.monotonic() + 15
while not (re.search(rb"R.*c", got) and got.endswith(b"c")) and time.monotonic() < deadline:
    if select.select([0], [], [], 0.1)[0]:
        got += os.read(0, 100)
os.write(1, b"answers:" + got.replace(b"\x1b", b"ESC") + b":end\r\n")
line = b""
while not line.endswith(b"\r"):
    line += os.read(0, 100)
os.write(1, b"typed:" + line.strip() + b"\r\n")
"""


def log_of(data: dict[str, object]) -> bytes:
    return Path(str(data["log_path"])).read_bytes()


def test_a_detached_agents_queries_are_answered_and_it_then_reads_keys(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path],
) -> None:
    agent("asker", "import re\n" + ASKS_ITS_TERMINAL)
    data = start_background(gz, repo, "asker")
    session = str(data["id"])
    log = wait_until(lambda: b":end\r\n" in log_of(data) and log_of(data), what="the answers")
    answers = re.search(rb"answers:(.*):end", log)
    assert answers is not None
    assert re.fullmatch(rb"ESC\[\d+;1RESC\[\?1;2c", answers[1]), log
    poll = gz("--json", "session", "poll", session, cwd=repo).json["data"]
    assert poll["attached"] == 0
    gz("session", "submit", session, "hello", cwd=repo)
    wait_until(lambda: b"typed:hello\r\n" in log_of(data), what="the typed line")
    assert wait_final(repo, session)["status"] == "completed"
    assert stored(repo, session)["exit_code"] == 0

