"""The agent's state: the detector's CPU cost, and state-change latency.

Usage: python bench/agent_state.py [--sessions N] [--seconds S] [--latency-runs N]

1. Detector cost. N programs block reading their own PTY (an idle agent: the detector's
   steady case). One loop samples them as each session's owner does (every
   ``IDLE_WAKEUP_S``, :class:`~gzia.supervisor.activity.TerminalProbe`), for S seconds;
   a second loop makes the same wake-ups without sampling (the baseline, measured in the
   same run). The difference in CPU time is the detector's cost. Goal: 100 sessions cost
   less than 1% of one core.
2. Latency: real background sessions (``gz-ia exec -b`` / ``chat -b``) in a fresh git
   repository: a program that prints and then blocks reading its terminal (the detector:
   ``idle``), and a stand-in Claude Code that fires its ``Stop`` hook (hooks: ``idle``).
   From the agent's action (the time it notes) to the event's write time. Goal: < 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory

GOAL_CORE_SHARE = 0.01
GOAL_LATENCY_S = 1.0
READS = "import sys\nsys.stdin.readline()\n"


def spawn_blocked(count: int) -> list[tuple[int, int]]:
    children = []
    for _ in range(count):
        pid, master = pty.fork()
        if pid == 0:
            os.execv(sys.executable, [sys.executable, "-S", "-c", READS])  # noqa: S606
        children.append((pid, master))
    time.sleep(1.0)  # all of them blocked in their read
    return children


def cpu_of_loop(children: list[tuple[int, int]], seconds: float, probe: bool) -> float:
    from gzia.supervisor.activity import TerminalProbe
    from gzia.supervisor.run import IDLE_WAKEUP_S

    probes = [TerminalProbe() for _ in children]
    last_output = time.monotonic() - 10  # quiet since long ago
    began, cpu = time.monotonic(), time.process_time()
    while time.monotonic() - began < seconds:
        now = time.monotonic()
        if probe:
            for (pid, _), sampler in zip(children, probes, strict=True):
                sampler.observe(pid, last_output, now)
        time.sleep(IDLE_WAKEUP_S)
    if probe:
        assert all(p.activity == "blocked" for p in probes), "a blocked program was missed"
    return time.process_time() - cpu


def detector_cost(sessions: int, seconds: float) -> float:
    children = spawn_blocked(sessions)
    try:
        baseline = cpu_of_loop(children, seconds, probe=False)
        sampled = cpu_of_loop(children, seconds, probe=True)
    finally:
        for pid, master in children:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            os.close(master)
    per_session = max(0.0, sampled - baseline) / seconds / sessions  # core share
    print(f"detector: {sessions} blocked sessions for {seconds:g} s: baseline "
          f"{baseline * 1000:.1f} ms CPU, sampled {sampled * 1000:.1f} ms CPU")
    share = per_session * 100
    print(f"  per session: {per_session * 1e6:.1f} us CPU per second; 100 sessions: "
          f"{share:.3%} of one core (goal < {GOAL_CORE_SHARE:.0%}: "
          f"{'met' if share < GOAL_CORE_SHARE else 'MISSED'})")
    return share


STAND_IN_CLAUDE = """#!{python}
import json, os, subprocess, sys, time
argv = sys.argv[1:]
hook = json.loads(argv[argv.index("--settings") + 1])["hooks"]["Stop"][0]["hooks"][0]
time.sleep(0.5)
open(os.environ["BENCH_NOTE"], "w").write(str(time.time()))
subprocess.run([hook["command"], *hook["args"]], check=True,
               input=json.dumps({{"hook_event_name": "Stop", "stop_hook_active": False}}).encode())
time.sleep(0.5)
"""

PRINTS_THEN_READS = """#!{python}
import os, sys, time
print("ready?", flush=True)
open(os.environ["BENCH_NOTE"], "w").write(str(time.time()))
sys.stdin.readline()
"""


def latency(kind: str, repo: Path, bin_dir: Path, note: Path) -> float:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "BENCH_NOTE": str(note)}
    args = (["chat", "-b", "-p", "claude", "-i", "go", "--no-mcp"] if kind == "hooks"
            else ["exec", "-b", "--", "reader"])
    started = subprocess.run([sys.executable, "-m", "gzia", "--json", *args], cwd=repo,
                             env=env, capture_output=True, text=True, check=True)
    session_id = json.loads(started.stdout)["data"]["id"]
    events = repo / ".harness" / "sessions" / f"{session_id}.events.jsonl"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        idle = [e for e in map(json.loads, events.read_text().splitlines())
                if e.get("state") == "idle"]
        if idle:
            subprocess.run([sys.executable, "-m", "gzia", "session", "kill", session_id],
                           cwd=repo, env=env, capture_output=True, check=False)
            written = datetime.fromisoformat(idle[0]["timestamp"].replace("Z", "+00:00"))
            return written.timestamp() - float(note.read_text())
        time.sleep(0.02)
    raise RuntimeError(f"{kind}: no idle state recorded")


def latencies(runs: int) -> dict[str, float]:
    medians = {}
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        repo, bin_dir = make_repo(root), root / "bin"
        bin_dir.mkdir()
        for name, body in (("claude", STAND_IN_CLAUDE), ("reader", PRINTS_THEN_READS)):
            (bin_dir / name).write_text(body.format(python=sys.executable))
            (bin_dir / name).chmod(0o755)
        for kind in ("hooks", "detector"):
            found = [latency(kind, repo, bin_dir, root / f"note-{kind}-{i}") for i in range(runs)]
            medians[kind] = statistics.median(found)
            print(f"latency ({kind}): action -> idle event, median {medians[kind] * 1000:.0f} ms"
                  f" (max {max(found) * 1000:.0f} ms; goal < {GOAL_LATENCY_S:g} s: "
                  f"{'met' if max(found) < GOAL_LATENCY_S else 'MISSED'})")
    return medians


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--latency-runs", type=int, default=3)
    args = parser.parse_args()
    detector_cost(args.sessions, args.seconds)
    latencies(args.latency_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
