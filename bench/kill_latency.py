"""Kill latency: ``session kill`` of a cooperative and of a SIGTERM-ignoring agent.

Usage: python bench/kill_latency.py [--runs N] [--grace-ms MS]
Each run starts a real session (``python -m gzia exec -- <agent>`` in a fresh git
repository), waits until its pid is recorded, then times ``kill_session``: from the call
until the whole process group is gone and the record says ``killed``. The cooperative
agent exits on SIGTERM; the stubborn one ignores it, and so does its grandchild, so it
costs the grace and then SIGKILL. Goal: every median <= grace + 50 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory

SLACK_S = 0.050
AGENTS = {
    "cooperative": "import time\nwhile True:\n    time.sleep(1)\n",
    "stubborn": (
        "import os, signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "os.fork()\nwhile True:\n    time.sleep(1)\n"
    ),
}


def write_agent(root: Path, name: str) -> Path:
    path = root / name
    path.write_text(f"#!{sys.executable}\n{AGENTS[name]}")
    path.chmod(0o755)
    return path


def wait_running(sessions: Path, known: set[str]) -> str:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for record in sessions.glob("*.json"):
            if record.stem in known:
                continue
            try:
                data = json.loads(record.read_text())
            except ValueError:
                continue
            if data.get("pid"):
                return record.stem
        time.sleep(0.005)
    raise RuntimeError("the session never recorded its pid")


def one_kill(repo: Path, agent: Path, grace_s: float, known: set[str]) -> float:
    from gzia.sessions.kill import kill_session
    from gzia.sessions.project import find_project
    from gzia.sessions.store import SessionStore

    owner = subprocess.Popen([sys.executable, "-m", "gzia", "exec", "--", str(agent)], cwd=repo,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    session_id = wait_running(repo / ".harness" / "sessions", known)
    known.add(session_id)
    time.sleep(0.1)  # let the agent install its handlers and fork
    store = SessionStore(find_project(repo))
    start = time.perf_counter()
    kill_session(store, session_id, grace_s)
    elapsed = time.perf_counter() - start
    owner.wait(30)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--grace-ms", type=int, default=100)
    args = parser.parse_args()
    grace_s = args.grace_ms / 1000
    budget = grace_s + SLACK_S
    print(f"grace {args.grace_ms} ms, budget (grace + 50 ms) {budget * 1000:.0f} ms")
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = make_repo(root)
        known: set[str] = set()
        for name in AGENTS:
            agent = write_agent(root, name)
            samples = [one_kill(repo, agent, grace_s, known) for _ in range(args.runs)]
            median = statistics.median(samples)
            print(f"{name:<12} median {median * 1000:7.1f} ms  max {max(samples) * 1000:7.1f} ms"
                  f"  median/grace {median / grace_s:5.2f}x  median/budget {median / budget:5.2f}x")
            verdicts.append(median <= budget)
    print(f"goal: kill <= grace + 50 ms: {'met' if all(verdicts) else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
