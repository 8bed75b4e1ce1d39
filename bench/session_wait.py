"""``session wait``: CPU used while waiting, and latency from a session's end to the return.

Usage: python bench/session_wait.py [--seconds 10] [--runs 3] [--pyz dist/gz-ia.pyz]

In a fresh git repository it starts ``gz-ia exec`` of a command that sleeps ``--seconds``
(a real session, owned by another process, as from another terminal), then runs
``gz-ia session wait <id>`` as a real process and measures, in the same run:

* baseline: the CPU seconds of ``session wait`` on a session that already ended (start-up,
  imports, one record read: what every call pays);
* the CPU seconds of ``session wait`` over the whole session, and that minus the baseline
  (what waiting itself costs);
* latency: from the session's end (the ``finished_at`` its owner stamps in the final
  record, just before writing it) to the wait process printing its answer.

Goals: waiting costs under 0.2 CPU seconds over a 10 s session; latency under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CPU_GOAL_S = 0.2
LATENCY_GOAL_MS = 100.0


def gz_command(pyz: str | None) -> list[str]:
    return [sys.executable, pyz] if pyz else [sys.executable, "-m", "gzia"]


def timed_child(argv: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds, wall time its answer arrived) of one process: ``wait`` has returned
    when it prints its first line (the interpreter's exit is not part of the wait)."""
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    assert process.stdout is not None
    process.stdout.readline()
    answered = time.time()
    process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, answered


def start_session(gz: list[str], root: Path, seconds: float) -> tuple[str, subprocess.Popen[str]]:
    sessions = root / ".harness" / "sessions"
    before = set(sessions.glob("*.json")) if sessions.exists() else set()
    sleeper = [sys.executable, "-c", f"import time; time.sleep({seconds})"]
    owner = subprocess.Popen([*gz, "exec", "--", *sleeper], cwd=root, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    while True:
        for path in (set(sessions.glob("*.json")) if sessions.exists() else set()) - before:
            record = json.loads(path.read_text() or "{}")
            if record.get("status") == "running" and record.get("pid", 0) > 0:
                return str(record["id"]), owner
        time.sleep(0.02)


def finished_at(root: Path, session_id: str) -> float:
    from gzia.sessions.record import parse_rfc3339

    record = json.loads((root / ".harness" / "sessions" / f"{session_id}.json").read_text())
    return parse_rfc3339(record["finished_at"]).timestamp()


def one_run(gz: list[str], seconds: float) -> tuple[float, float, float]:
    """(baseline CPU s, waiting CPU s, latency ms) for one session."""
    with tempfile.TemporaryDirectory(prefix="gzia-bench-") as scratch:
        root = Path(scratch)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        (root / "README").write_text("bench\n")
        subprocess.run(["git", "-C", str(root), "add", "README"], check=True)
        subprocess.run(["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b",
                        "commit", "-qm", "init"], check=True)
        session_id, owner = start_session(gz, root, seconds)
        cpu, answered = timed_child([*gz, "session", "wait", session_id], root)
        owner.wait()
        latency_ms = (answered - finished_at(root, session_id)) * 1000
        baseline, _ = timed_child([*gz, "session", "wait", session_id], root)
        return baseline, cpu, latency_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pyz", default=None, help="time the zipapp instead of python -m gzia")
    args = parser.parse_args()
    gz = gz_command(str(Path(args.pyz).resolve()) if args.pyz else None)
    results = [one_run(gz, args.seconds) for _ in range(args.runs)]
    baseline = statistics.median(r[0] for r in results)
    total = statistics.median(r[1] for r in results)
    waiting = max(0.0, total - baseline)
    latency = statistics.median(r[2] for r in results)
    print(f"session of {args.seconds:g} s, {args.runs} runs (medians)")
    print(f"  baseline: wait on an ended session   {baseline:7.3f} CPU s")
    print(f"  wait over the whole session          {total:7.3f} CPU s")
    print(f"  waiting itself                       {waiting:7.3f} CPU s  (goal < {CPU_GOAL_S})")
    print(f"  end-to-return latency                {latency:7.1f} ms     "
          f"(goal < {LATENCY_GOAL_MS:g})")
    met = waiting < CPU_GOAL_S and latency < LATENCY_GOAL_MS
    print(f"\ngoal: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
