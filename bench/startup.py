"""Start-up time of dist/gz-ia.pyz against ``python3 -c pass``, measured in the same run.

Usage: python bench/startup.py [path/to/gz-ia.pyz] [--runs N]
Prints the median wall time of each command and its ratio to the baseline.
Goal: ``gz-ia --version`` within 1.6x of ``python3 -c pass`` (warm: the zipapp's
dependencies are already extracted, as they are after its first run).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL = 1.6


def median_seconds(argv: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyz", nargs="?", default="dist/gz-ia.pyz")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    pyz = str(Path(args.pyz).resolve())
    python = sys.executable
    subprocess.run([python, pyz, "--version"], capture_output=True, check=True)  # warm up
    baseline = median_seconds([python, "-c", "pass"], args.runs)
    print(f"{'python3 -c pass':<28} {baseline * 1000:7.1f} ms   1.00x")
    ratios = {}
    for label, extra in (("gz-ia --version", ["--version"]), ("gz-ia --help", ["--help"]),
                         ("gz-ia plugins", ["plugins"])):
        seconds = median_seconds([python, pyz, *extra], args.runs)
        ratios[label] = seconds / baseline
        print(f"{label:<28} {seconds * 1000:7.1f} ms  {ratios[label]:5.2f}x")
    verdict = "met" if ratios["gz-ia --version"] <= GOAL else "NOT met"
    print(f"goal: gz-ia --version <= {GOAL}x python3 -c pass: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
