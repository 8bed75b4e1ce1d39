"""``gz-ia session list`` over 1,000 and 10,000 records against a plain JSON loop.

Usage: python bench/session_list.py [--runs N] [--sizes 1000,10000] [--pyz dist/gz-ia.pyz]
                                  [--indented]

For each size it writes that many session records (as gz-ia writes them) into a
fresh git repository, then measures, in the same run:

* baseline: a plain Python loop that lists the sessions directory and ``json.load``s
  every ``*.json`` file (what any script reading the store must do at least);
* ``session list --json`` and ``session list`` (human table), and ``--json`` with every
  filter (``--status``, ``--label``, ``--since``, ``--provider``) and with ``--limit``, run
  in-process through
  ``gzia.cli.main`` (the command's own cost: parsing, project lookup, load, reconcile,
  sort, render);
* ``first list, N stale running`` (human table): the first listing after gz-ia died
  under N ``running`` sessions, whose processes are gone: every record is reconciled
  to ``lost``. Each sample starts from freshly written records (not timed). Its ratio
  is against ``session list (table)`` of the same number of finished records, measured
  in the same run;
* with ``--pyz``: both again as real processes (``python -c <loop>`` vs the zipapp),
  start-up included (the interpreter, the zipapp and gz-ia's imports, which
  ``bench/startup.py`` measures on their own): shown, not part of the goal.

``--indented`` writes the records indented, as the original gz-ia did: they are decoded
and encoded again instead of being printed as read.

Prints medians and ratios. Goals: ``session list`` (JSON and table) within 1.5x of the
plain loop; the first listing over stale ``running`` records within 2x a normal listing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOAL = 1.5
STALE_GOAL = 2.0
STALE = "first list, N stale running"
DEAD_PID = 4_000_000  # above any pid_max in use here: no process has it
STATUSES = ("completed", "failed", "killed", "lost")
LOOP = (
    "import json, os, sys\n"
    "d = sys.argv[1]\n"
    "records = []\n"
    "for name in os.listdir(d):\n"
    "    if name.endswith('.json'):\n"
    "        with open(os.path.join(d, name), 'rb') as f:\n"
    "            records.append(json.load(f))\n"
)


def write_records(root: Path, count: int, *, indented: bool = False,
                  stale: bool = False) -> Path:
    """``count`` finished sessions, written in the store's own form (or indented);
    ``stale``: ``running`` ones whose process is gone, as a killed gz-ia leaves them."""
    from gzia.sessions.record import SessionRecord

    sessions = root / ".harness" / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        sid = f"{n:08x}"
        record = SessionRecord(
            id=sid, pid=(DEAD_PID if stale else 10000) + n, provider="claude",
            status="running" if stale else STATUSES[n % 4],
            permission_level="supervised", working_dir=str(root),
            initial_prompt=f"task number {n}", started_at=f"2026-01-01T00:00:{n % 60:02d}Z",
            finished_at="2026-01-01T01:00:00Z", duration_ms=1000 * n, exit_code=0,
            is_isolated=True, worktree_dir=f"{root}/.harness/worktrees/{sid}",
            branch_name=f"harness/{sid}", base_branch="main", base_commit="0" * 40,
            pgid=10000 + n, pid_start_time="12345", end_reason="process_exit",
            mode="foreground", updated_at="2026-01-01T01:00:00Z",
            labels={"team": ("api", "web")[n % 2]},
        )
        text = json.dumps(record.to_json(), indent=2) if indented else record.to_text()
        (sessions / f"{sid}.json").write_text(text + "\n", encoding="utf-8")
    return sessions


def plain_loop(directory: Path) -> None:
    records = []
    for name in os.listdir(directory):
        if name.endswith(".json"):
            with open(os.path.join(directory, name), "rb") as handle:
                records.append(json.load(handle))


def gz_list(root: Path, *extra: str) -> Callable[[], None]:
    from gzia.cli import main

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["session", "list", "-d", str(root), *extra])
        assert code == 0

    return run


def median_seconds(action: Callable[[], object], runs: int) -> float:
    action()  # warm the file cache and imports
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def first_listing_seconds(root: Path, count: int, runs: int) -> float:
    """The median first ``session list`` over ``count`` stale records, rewritten before
    each sample (lock files too: a first listing finds none)."""
    listing = gz_list(root)
    samples = []
    for _ in range(runs):
        sessions = root / ".harness" / "sessions"
        for lock in sessions.glob("*.lock"):
            lock.unlink()
        write_records(root, count, stale=True)
        start = time.perf_counter()
        listing()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def process(argv: list[str]) -> Callable[[], object]:
    return lambda: subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)


def bench_size(count: int, runs: int, pyz: str | None, indented: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="gzia-bench-") as scratch:
        root = Path(scratch)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        sessions = write_records(root, count, indented=indented)
        cases: dict[str, Callable[[], object]] = {
            "plain loop (in-process)": lambda: plain_loop(sessions),
            "session list --json": gz_list(root, "--json"),
            "session list (table)": gz_list(root),
            "session list --json filtered": gz_list(
                root, "--json", "--status", "completed", "--label", "team=api",
                "--since", "2025-12-31T00:00:00Z", "--provider", "claude"),
            "session list --json --limit": gz_list(root, "--json", "--label", "team=web",
                                                   "--limit", "50"),
        }
        if pyz:
            cases["plain loop (process)"] = process([sys.executable, "-c", LOOP, str(sessions)])
            cases["pyz session list --json"] = process(
                [sys.executable, pyz, "session", "list", "--json", "-d", str(root)])
        results = {label: median_seconds(action, runs) for label, action in cases.items()}
    with tempfile.TemporaryDirectory(prefix="gzia-bench-") as scratch:
        root = Path(scratch)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        results[STALE] = first_listing_seconds(root, count, max(3, runs // 2))
    return results


def report(count: int, results: dict[str, float]) -> bool:
    print(f"\n{count:,} records")
    in_base = results["plain loop (in-process)"]
    proc_base = results.get("plain loop (process)")
    met = True
    for label, seconds in results.items():
        as_process = label == "plain loop (process)" or label.startswith("pyz")
        base = proc_base if as_process and proc_base else in_base
        if label == STALE:
            base = results["session list (table)"]
        ratio = seconds / base
        print(f"  {label:<30} {seconds * 1000:9.1f} ms  {ratio:5.2f}x")
        if label.startswith("session list"):
            met = met and ratio <= GOAL
        if label == STALE:
            print(f"  {'':<30} (ratio against session list (table); goal {STALE_GOAL}x)")
            met = met and ratio <= STALE_GOAL
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--pyz", default=None, help="also time the zipapp as a process")
    parser.add_argument("--indented", action="store_true",
                        help="write the records indented, as the original gz-ia did")
    args = parser.parse_args()
    pyz = str(Path(args.pyz).resolve()) if args.pyz else None
    verdicts = [report(n, bench_size(n, args.runs, pyz, args.indented))
                for n in (int(s) for s in args.sizes.split(","))]
    print(f"\ngoals: session list (in-process) <= {GOAL}x the plain loop, first listing "
          f"over stale records <= {STALE_GOAL}x a normal one: "
          f"{'met' if all(verdicts) else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
