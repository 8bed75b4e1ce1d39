"""What the update notice costs a command: ``config path`` on a terminal with a day-old
cached answer (so the command starts the background check) against the same command with
``GZ_UPDATE_CHECK=off``, measured in the same run.

Usage: python bench/update_notice.py [path/to/gz-ia.pyz] [--runs N]

The zipapp defaults to dist/gz-ia.pyz (build/shiv.sh), what users run: its start-up has
already loaded what starting the check needs (``zipfile``); without one the command is
``<this python> -P -m gzia``, where starting the check also pays that import. Each command
runs on a fresh PTY (stdin, stdout and stderr a terminal, as the notice requires), in
temporary gz-ia directories; the samples interleave. The check is pointed at a port where
nothing listens, and each stale sample waits for its check to end before the next sample
starts, so the check's own CPU never lands on the next measurement.

Goal: the stale-cache command within 1.05x of the one with the notice off (medians). The
wall time is shown beside the command's own CPU time, which other work on the machine sways
less; on a loaded machine the CPU ratio is the one to read.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 1.05
DAY = 24 * 3600


def dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/service/rest/v1/search/assets?repository=gz-ia"


def on_a_terminal(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``argv`` on a fresh PTY: its wall time and its own CPU time (user + system;
    the detached check is not its child any more, so it is not counted)."""
    master, slave = pty.openpty()
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdin=slave, stdout=slave, stderr=slave,
                             start_new_session=True)
    os.close(slave)
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    _, _, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    child.returncode = 0
    os.close(master)
    return elapsed, usage.ru_utime + usage.ru_stime


def make_stale(cache: Path) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"checked_at": time.time() - DAY - 1, "current": "0",
                                 "newer": False}))


def wait_for_check(cache: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if json.loads(cache.read_text()).get("error"):
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    raise SystemExit("the background check did not end in 30 s")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("pyz", nargs="?")
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()
    built = Path(__file__).resolve().parents[1] / "dist" / "gz-ia.pyz"
    pyz = options.pyz or (str(built) if built.is_file() else None)
    base = [sys.executable, pyz] if pyz else [sys.executable, "-P", "-m", "gzia"]
    argv = [*base, "config", "path"]
    with tempfile.TemporaryDirectory(prefix="gz-bench-notice-") as folder:
        dirs = {f"GZ_{kind}_DIR": str(Path(folder) / kind.lower())
                for kind in ("CONFIG", "DATA", "CACHE", "STATE")}
        env = {**os.environ, **dirs, "GZ_NEXUS_SEARCH_URL": dead_url()}
        env.pop("CI", None)
        cache = Path(dirs["GZ_CACHE_DIR"]) / "update-check.json"
        samples: dict[str, list[tuple[float, float]]] = {"off": [], "stale": []}
        on_a_terminal(argv, {**env, "GZ_UPDATE_CHECK": "off"})  # warm
        for _ in range(options.runs):
            samples["off"].append(on_a_terminal(argv, {**env, "GZ_UPDATE_CHECK": "off"}))
            make_stale(cache)
            samples["stale"].append(on_a_terminal(argv, {**env, "GZ_UPDATE_CHECK": "notify"}))
            wait_for_check(cache)
    wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    print(f"notice off      {wall['off'] * 1000:7.1f} ms wall  {cpu['off'] * 1000:7.1f} ms CPU")
    print(f"stale cache     {wall['stale'] * 1000:7.1f} ms wall  {cpu['stale'] * 1000:7.1f} ms CPU"
          f"  {wall['stale'] / wall['off']:.3f}x wall, {cpu['stale'] / cpu['off']:.3f}x CPU"
          f"  (goal {GOAL}x)")
    return 0 if min(wall["stale"] / wall["off"], cpu["stale"] / cpu["off"]) <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
