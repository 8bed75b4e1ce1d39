"""What shedding gz-ia's credentials costs: each command with a withheld credential in its
environment against the same command without one, measured in the same run.

Usage: python bench/credentials.py [--runs N] [--pyz dist/gz-ia.pyz]

A gz-ia whose environment holds a withheld credential (``GZ_FORGEJO_TOKEN`` here) runs
its command line again without it (``os.execve``, docs/supervisor.md "Credentials"): one
more interpreter start, paid only when a credential is set. Measured as real processes
(``python -m gzia``, or the zipapp with ``--pyz``) in a throwaway repository:
``--version``, ``session list`` and ``exec -- true``, each with and without the token.
Prints the medians, their difference and ratio. Goal: the difference stays within 2.5x
the start-up of ``gz-ia --version`` without a credential (one more start, plus reading the
settings table before it to decide: nothing that grows with the command).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory

WITHHELD = {"GZ_FORGEJO_TOKEN": "bench-token"}
GOAL = 2.5
COMMANDS = (("--version",), ("session", "list"), ("exec", "--", "true"))


def seconds(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def medians(argv: list[str], env: dict[str, str], cwd: Path, runs: int) -> tuple[float, float]:
    """The median without and with the credential, their samples taken in turns (so a
    busy machine weighs on both alike)."""
    pairs = [(seconds(argv, env, cwd), seconds(argv, {**env, **WITHHELD}, cwd))
             for _ in range(runs)]
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--pyz", help="measure this zipapp instead of python -m gzia")
    args = parser.parse_args()
    gzia = [sys.executable, str(Path(args.pyz).resolve())] if args.pyz \
        else [sys.executable, "-m", "gzia"]
    plain = {k: v for k, v in os.environ.items() if not k.startswith("GZ_")}
    with tempfile.TemporaryDirectory() as scratch:
        repo = make_repo(Path(scratch))
        start_up, worst = 0.0, 0.0
        print(f"{'command':<22} {'without':>9} {'with':>9} {'extra':>9}  ratio")
        for command in COMMANDS:
            argv = [*gzia, *command]
            without, with_token = medians(argv, plain, repo, args.runs)
            start_up = start_up or without
            worst = max(worst, with_token - without)
            print(f"{' '.join(command):<22} {without * 1000:7.1f}ms {with_token * 1000:7.1f}ms "
                  f"{(with_token - without) * 1000:7.1f}ms  {with_token / without:5.2f}x")
    verdict = "met" if worst <= GOAL * start_up else "NOT met"
    print(f"goal: extra <= {GOAL}x one start of gz-ia --version ({start_up * 1000:.1f} ms): "
          f"{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
