"""``gz-ia session metrics`` over a large Claude Code transcript against a plain JSON loop.

Usage: python bench/metrics.py [--runs N] [--sizes 10,100]

For each size (MB) it writes a Claude Code transcript of that size (user turns with tool
results, replies written as several lines sharing one message id, as Claude Code writes
them) and a session record naming it, then measures in the same run:

* baseline: ``json.loads`` of every line of the file, read in binary (what any script
  reading the transcript must do at least);
* ``session metrics --json`` run in-process through ``gzia.cli.main`` (find the project,
  load and reconcile the record, locate the transcript, read it, render the envelope);
* peak memory of ``session metrics`` in a fresh process for each size: the maximum
  resident set and the peak of Python's own allocations (``tracemalloc``).

Prints the best of ``--runs`` CPU times and their ratio. Goals: time within 1.5x of the
plain loop; memory flat (the 100 MB peak close to the 10 MB one).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOAL = 1.5
SESSION_ID = "be7c4a11"
CONVERSATION = "6d0f3a52-1b7e-4c9a-9f3e-0a1b2c3d4e5f"
MEMORY_PROBE = """
import contextlib, io, resource, sys, tracemalloc
tracemalloc.start()
from gzia.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["session", "metrics", sys.argv[1], "--json", "-d", sys.argv[2]])
peak = tracemalloc.get_traced_memory()[1]
print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, peak)
"""


def turn(n: int) -> list[dict[str, object]]:
    """One user turn with a tool result, then a reply in three lines sharing its id."""
    message_id = f"msg_{n:012d}"
    usage = {"input_tokens": 100 + n % 7, "output_tokens": 20 + n % 5,
             "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 50}
    common = {"sessionId": CONVERSATION, "cwd": "/w", "version": "2.1.197",
              "uuid": f"{n:08x}-0000-4000-8000-000000000000", "timestamp": "2026-12-01T12:00:00Z"}
    result = {"type": "tool_result", "tool_use_id": f"toolu_{n - 1}", "content": "x" * 1500}
    lines: list[dict[str, object]] = [
        {**common, "type": "user", "message": {"role": "user", "content": [result]}}]
    blocks = [{"type": "thinking", "thinking": "t" * 400}, {"type": "text", "text": "a" * 300},
              {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"c": "ls"}}]
    for block in blocks:
        message = {"id": message_id, "type": "message", "role": "assistant",
                   "model": "claude-opus-4-8", "content": [block], "usage": usage}
        lines.append({**common, "type": "assistant", "message": message})
    return lines


def write_transcript(path: Path, megabytes: int) -> int:
    target, written, n = megabytes * 1_000_000, 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            chunk = "".join(json.dumps(line) + "\n" for line in turn(n))
            out.write(chunk)
            written += len(chunk)
            n += 1
    return n


def make_project(root: Path, megabytes: int) -> Path:
    """A project in direct mode whose one Claude session names its transcript."""
    from gzia.sessions.record import SessionRecord

    project = root / "project"
    sessions = project / ".harness" / "sessions"
    sessions.mkdir(parents=True)
    record = SessionRecord(id=SESSION_ID, provider="claude", status="completed",
                           working_dir=str(project), started_at="2026-12-01T12:00:00Z",
                           finished_at="2026-12-01T13:00:00Z", duration_ms=3_600_000,
                           conversation_id=CONVERSATION)
    (sessions / f"{SESSION_ID}.json").write_text(record.to_text())
    folder = root / "claude" / "projects" / "-elsewhere"
    folder.mkdir(parents=True)
    write_transcript(folder / f"{CONVERSATION}.jsonl", megabytes)
    return project


def plain_loop(path: Path) -> None:
    with path.open("rb") as stream:
        for line in stream:
            json.loads(line)


def session_metrics(project: Path) -> None:
    from gzia.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["session", "metrics", SESSION_ID, "--json", "-d", str(project)])
    assert code == 0, out.getvalue()
    assert '"requests": ' in out.getvalue(), "the transcript was not read"


def best_seconds(actions: list[Callable[[], None]], runs: int) -> list[float]:
    """The best of ``runs`` CPU times of each action, after a warm-up run of each (imports,
    the page cache). The actions take turns, so a burst of other work on this shared
    machine hits them alike; CPU time, not wall time, which mostly measures the others."""
    for action in actions:
        action()
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for action, spent in zip(actions, times, strict=True):
            start = time.process_time()
            action()
            spent.append(time.process_time() - start)
    return [min(spent) for spent in times]


def peak_memory(project: Path) -> tuple[float, float]:
    """Max resident set and tracemalloc peak, in MiB, of one run in a fresh process."""
    done = subprocess.run([sys.executable, "-c", MEMORY_PROBE, SESSION_ID, str(project)],
                          capture_output=True, text=True, check=True, env=os.environ.copy())
    code, rss_kib, traced = done.stdout.split()
    assert code == "0", done.stderr
    return int(rss_kib) / 1024, int(traced) / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="10,100")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gzia-bench-metrics-") as scratch:
        print(f"{'size':>6}  {'json.loads loop':>15}  {'session metrics':>15}  {'ratio':>6}  "
              f"{'max RSS':>9}  {'py peak':>9}")
        for megabytes in (int(s) for s in args.sizes.split(",")):
            root = Path(scratch) / f"{megabytes}mb"
            os.environ["CLAUDE_CONFIG_DIR"] = str(root / "claude")
            project = make_project(root, megabytes)
            transcript = next((root / "claude" / "projects").glob("*/*.jsonl"))
            base, ours = best_seconds([lambda t=transcript: plain_loop(t),
                                       lambda p=project: session_metrics(p)], args.runs)
            rss, traced = peak_memory(project)
            verdict = "ok" if ours / base <= GOAL else "OVER"
            print(f"{megabytes:>4}MB  {base * 1000:>12.1f} ms  {ours * 1000:>12.1f} ms  "
                  f"{ours / base:>5.2f}x  {rss:>5.1f} MiB  {traced:>5.2f} MiB  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
