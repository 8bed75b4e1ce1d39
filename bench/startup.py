"""Start-up time of dist/gz-ia.pyz against ``python3 -c pass``, measured in the same run.

Usage: python bench/startup.py [path/to/gz-ia.pyz] [--runs N] [--instructions]

Every command runs as ``<this python> <pyz> ...`` and the baseline as ``<this python> -c
pass``: the same interpreter, so the ratio is gz-ia's own cost (the zipapp, its imports,
the command). The samples interleave (baseline, then each command, round after round),
so a machine loaded by other work slows both sides alike; the children's CPU time (user +
system) is shown beside the wall time, being less swayed by that work. The project listed is a fresh
git repository holding ten finished sessions (bench/session_list.py writes them).

``--instructions`` counts instead the instructions each command executes (once each,
under valgrind's callgrind; skipped with a notice where valgrind is missing): a count
other work on the machine does not change, so two builds compare on a loaded machine.
Instruction ratios run higher than time ratios: ``python -c pass`` spends a larger part
of its time in the kernel (exec, page faults), which executes no counted instruction.

Goals: ``--version`` within 1.6x; ``session list``, ``session show <id>``,
``session list --status running`` and ``--help`` each within 2.5x. Warm: the zipapp's
dependencies are already extracted, as they are after its first run.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory
from session_list import write_records

GOALS = {
    "--version": 1.6,
    "session list": 2.5,
    "session show <id>": 2.5,
    "session list --status running": 2.5,
    "--help": 2.5,
}
SESSIONS = 10
BASELINE = "python -c pass"


def commands(repo: Path) -> dict[str, list[str]]:
    return {
        "--version": ["--version"],
        "session list": ["session", "list", "-d", str(repo)],
        "session show <id>": ["session", "show", "00000001", "-d", str(repo)],
        "session list --status running": ["session", "list", "--status", "running",
                                          "-d", str(repo)],
        "--help": ["--help"],
    }


def seconds(argv: list[str], *, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> tuple[float, float]:
    """Wall time, and CPU time (user + system) of the child: less swayed by other work."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(python: str, pyz: str, repo: Path, runs: int) -> dict[str, tuple[float, float]]:
    """The median wall and CPU seconds of the baseline (``python -c pass``) and of each
    command."""
    argvs = {BASELINE: [python, "-c", "pass"],
             **{label: [python, pyz, *args] for label, args in commands(repo).items()}}
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in argvs}
    for _ in range(runs):
        for label, argv in argvs.items():
            samples[label].append(seconds(argv))
    return {label: (statistics.median(w for w, _ in values),
                    statistics.median(c for _, c in values))
            for label, values in samples.items()}


def instructions(argv: list[str]) -> int:
    """The instructions ``argv`` executes (user space, the dynamic loader included)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind counted nothing for {argv}: {done.stderr[-300:]}")
    return int(found[1])


def report_instructions(python: str, pyz: str, repo: Path) -> None:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts (times only)")
        return
    base = instructions([python, "-c", "pass"])
    print(f"{BASELINE:<38} {base / 1e6:8.1f} M instructions  1.00x")
    for label, args in commands(repo).items():
        count = instructions([python, pyz, *args])
        print(f"gz-ia {label:<32} {count / 1e6:8.1f} M instructions {count / base:5.2f}x"
              f"   (goal {GOALS[label]}x)")


def print_baseline(medians: dict[str, tuple[float, float]], width: int) -> tuple[float, float]:
    """The table's head and the baseline's row (taken out of ``medians``): its wall and CPU."""
    wall0, cpu0 = medians.pop(BASELINE)
    print(f"{'':<{width}} {'wall':>9} {'ratio':>6}   {'CPU':>9} {'ratio':>6}")
    print(f"{BASELINE:<{width}} {wall0 * 1000:6.1f} ms  1.00x   {cpu0 * 1000:6.1f} ms  1.00x")
    return wall0, cpu0


def report(medians: dict[str, tuple[float, float]]) -> None:
    wall0, cpu0 = print_baseline(medians, 38)
    for label, (wall, cpu) in medians.items():
        goal = GOALS[label]
        verdict = "met" if wall / wall0 <= goal else "NOT met"
        print(f"gz-ia {label:<32} {wall * 1000:6.1f} ms {wall / wall0:5.2f}x   "
              f"{cpu * 1000:6.1f} ms {cpu / cpu0:5.2f}x   (goal {goal}x wall: {verdict})")


def warm_pyz(description: str, runs: int, *,
             counts: bool = False) -> tuple[str, str, argparse.Namespace]:
    """This interpreter, the pyz named on the command line (run once, so its dependencies
    are extracted) and the options asked for."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("pyz", nargs="?", default="dist/gz-ia.pyz")
    parser.add_argument("--runs", type=int, default=runs)
    if counts:
        parser.add_argument("--instructions", action="store_true",
                            help="count instructions (valgrind) instead of timing")
    args = parser.parse_args()
    pyz = str(Path(args.pyz).resolve())
    subprocess.run([sys.executable, pyz, "--version"], capture_output=True, check=True)
    return sys.executable, pyz, args


def main() -> int:
    python, pyz, args = warm_pyz(__doc__.splitlines()[0], 30, counts=True)
    with tempfile.TemporaryDirectory() as scratch:
        repo = make_repo(Path(scratch))
        write_records(repo, SESSIONS)
        if args.instructions:
            report_instructions(python, pyz, repo)
        else:
            report(measure(python, pyz, repo, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
