"""Start of a sandboxed ``gz-ia exec -- true`` against the unsandboxed one, in the same run.

Usage: python bench/sandbox.py [--runs N]

Both run ``<this python> -m gzia exec -- true`` in a fresh repository (a worktree, a
record, the run, the final record); the sandboxed one adds ``--sandbox`` with
``sandbox_network = none``: bubblewrap's probe, the policy, the git paths and the two
signal shims. The samples interleave, so a loaded machine slows both sides alike.

Goal: the sandboxed start within 1.3x of the unsandboxed one. (The allowlist proxy's
throughput: bench/sandbox_proxy.py.)
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

GOAL = 1.3


def seconds(argv: list[str], repo: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=repo, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    env = {**os.environ, "GZ_SANDBOX_NETWORK": "none"}
    plain = [sys.executable, "-m", "gzia", "exec", "--", "true"]
    sandboxed = [sys.executable, "-m", "gzia", "exec", "--sandbox", "--", "true"]
    with tempfile.TemporaryDirectory() as scratch:
        repo = make_repo(Path(scratch))
        samples: dict[str, list[float]] = {"plain": [], "sandboxed": []}
        for _ in range(runs):
            samples["plain"].append(seconds(plain, repo, env))
            samples["sandboxed"].append(seconds(sandboxed, repo, env))
    base, boxed = (statistics.median(samples[k]) for k in ("plain", "sandboxed"))
    ratio = boxed / base
    print(f"exec -- true            {base * 1000:8.1f} ms")
    print(f"exec --sandbox -- true  {boxed * 1000:8.1f} ms   {ratio:.2f}x (goal <= {GOAL}x)")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
